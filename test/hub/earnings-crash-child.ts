// Child process for earnings-crash.test.ts: svc on the embedded store, runs the hub's money order
// (earning due, caller charged) for a few calls and stops each right after the charge landed, as a
// process killed there would; one more call is paid in full. Then it says so and waits to be killed.
import { readConfig } from '../../runtime/config/config.ts';
import { createRuntime } from '../../runtime/serve/create-runtime.ts';
import { newCallId } from '../../runtime/util/call-id.ts';
import { FIXTURE_DIST } from '../helpers/paths.ts';

const PRICE = 70_000;
const { ctx } = await createRuntime(readConfig({ SVC_DIST_DIR: FIXTURE_DIST, SVC_DATA_DIR: process.argv[2], SVC_SECRET: 'crash-secret' }));
const caller = (await ctx.state.createTeam('crash caller', 1_000_000))!.team.id;
const maker = (await ctx.state.createTeam('crash maker', 0))!.team.id;
process.stdout.write(`teams ${caller} ${maker}\n`);
for (let i = 0; i < 4; i++) {
  const due = { maker, caller, amount_micro: PRICE, tool_id: 'crash-tool@1', call_id: newCallId() };
  const hold = (await ctx.spending.hold(caller, PRICE))!;
  const charged = await ctx.earnings.charge(due, () => hold.charge(PRICE, { tool_id: due.tool_id, call_id: due.call_id }));
  if (i === 3) await ctx.earnings.pay(due, charged);
  process.stdout.write(`${i === 3 ? 'paid' : 'charged'} ${due.call_id}\n`);
}
process.stdout.write('ready\n');
setInterval(() => {}, 60_000);
