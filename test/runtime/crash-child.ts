// Child process for crash.test.ts: writes records as fast as it can and prints one line per write
// the state layer acknowledged, until it is killed.
import { createState } from '../../runtime/state/index.ts';

const dataDir = process.argv[2];
const state = await createState({ storage: null, dataDir, secret: 'crash-secret' });
const created = (await state.createTeam('Crash Co', 0))!;
process.stdout.write(`team ${created.team.id} ${created.token}\n`);
const pad = 'x'.repeat(4096);
for (let i = 1; ; i++) {
  await Promise.all([
    state.credit(created.team.id, i).then(() => process.stdout.write(`credit ${i}\n`)),
    state.atomics.nextId('crash').then((id) => process.stdout.write(`id ${id}\n`)),
    state.atomics.claim(`rec:${i}`, { i, pad }).then(() => process.stdout.write(`rec ${i}\n`)),
  ]);
}
