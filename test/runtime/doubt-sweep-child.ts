// Child process for doubt-sweep.test.ts: one svc instance's state on the given Redis. Prints `ready`;
// on the line `burst`, charges the given team 10 micro-USD again and again, 16 at a time, printing
// `landed <call id>` as each charge is answered landed (what a caller would be told); on the line
// `hold`, holds 5000 micro-USD of the team's balance for a call in flight and prints `held`; on the line
// `go`, charges it 1000 micro-USD for call `doubt-call`, and waits (the test kills it with SIGKILL
// while Redis is frozen, so that charge's answer never reaches it).
import { createInterface } from 'node:readline';
import { createState, teamAccount } from '../../runtime/state/index.ts';

const [url, team] = process.argv.slice(2);
const state = await createState({ storage: { kind: 'redis', url }, dataDir: '.', secret: 'doubt-sweep-secret' });
process.stdout.write('ready\n');
let n = 0;
const burst = async (): Promise<void> => {
  for (;;) {
    const call = `burst-${n++}`;
    if (await state.charge(Number(team), 10, { call_id: call })) process.stdout.write(`landed ${call}\n`);
  }
};
createInterface({ input: process.stdin }).on('line', (line) => {
  if (line === 'burst') for (let i = 0; i < 16; i++) void burst();
  if (line === 'hold')
    void state.atomics
      .hold(teamAccount(Number(team)), 'call-in-flight', 5000, 10 * 60_000)
      .then(({ held }) => process.stdout.write(held ? 'held\n' : 'not held\n'));
  if (line !== 'go') return;
  state.charge(Number(team), 1000, { call_id: 'doubt-call' }).then(
    (ok) => process.stdout.write(`charged ${ok}\n`),
    (e: Error) => process.stdout.write(`refused ${e.name}\n`),
  );
});
