// Child process for crash.test.ts: writes records (credits, charges, ids, records, feedback, reviews) as fast
// as it can and prints one line per write the state layer acknowledged, until it is killed.
import { createState } from '../../runtime/state/index.ts';
import { openFeedback } from '../../runtime/feedback/open.ts';
import { HubStore } from '../../runtime/hub/store.ts';

const dataDir = process.argv[2];
const state = await createState({ storage: { kind: 'fs' as const, dir: null }, dataDir, secret: 'crash-secret' });
const { feedback, reviews } = await openFeedback(state);
const created = (await state.createTeam('Crash Co', 0))!;
process.stdout.write(`team ${created.team.id} ${created.token}\n`);
const pad = 'x'.repeat(4096);
// hub publishes: the version record is what a publish acknowledges before its check runs
const hub = new HubStore(state.atomics);
await hub.claimTool('crash-tool', created.team.id);
const files = { 'tool.json': '{}', 'input.schema.json': '{}', 'output.schema.json': '{}', 'check.json': pad };
for (let i = 1; ; i++) {
  await Promise.all([
    // several credits at once, so the ledger's chunks hold more than one entry when the kill lands
    ...[0, 1, 2, 3, 4, 5, 6, 7].map((k) => state.credit(created.team.id, i * 8 + k).then(() => process.stdout.write(`credit ${i * 8 + k}\n`))),
    // charges, acknowledged once in the file and synced later: a kill -9 must not lose them either
    ...[0, 1, 2].map((k) =>
      state.charge(created.team.id, 1, { call_id: `c${i}.${k}` }).then((ok) => {
        if (ok) process.stdout.write(`charge c${i}.${k}\n`);
      }),
    ),
    state.atomics.nextId('crash').then((id) => process.stdout.write(`id ${id}\n`)),
    state.atomics.claim(`rec:${i}`, { i, pad }).then(() => process.stdout.write(`rec ${i}\n`)),
    // feedback, and reviews that replace each other on a few endpoints
    feedback.submit(created.team.id, { kind: 'other', message: `crash ${i}` }).then((f) => process.stdout.write(`feedback ${f.id} ${i}\n`)),
    reviews
      .submit(created.team.id, { endpoint_id: `crash.e${i % 8}`, usefulness: 'useful', reason: `crash ${i}` })
      .then((r) => process.stdout.write(`review ${r.review.id} ${i}\n`)),
    hub.addVersion('crash-tool', files, i).then((v) => process.stdout.write(`pub ${v.version}\n`)),
  ]);
}
