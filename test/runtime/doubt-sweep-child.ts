// Child process for doubt-sweep.test.ts: one svc instance's state on the given Redis. Prints `ready`,
// then charges the given team 1000 micro-USD for call `doubt-call` on the line `go`, and waits (the
// test kills it with SIGKILL while Redis is frozen, so the charge's answer never reaches it).
import { createInterface } from 'node:readline';
import { createState } from '../../runtime/state/index.ts';

const [url, team] = process.argv.slice(2);
const state = await createState({ storage: { kind: 'redis', url }, dataDir: '.', secret: 'doubt-sweep-secret' });
process.stdout.write('ready\n');
createInterface({ input: process.stdin }).on('line', (line) => {
  if (line !== 'go') return;
  state.charge(Number(team), 1000, { call_id: 'doubt-call' }).then(
    (ok) => process.stdout.write(`charged ${ok}\n`),
    (e: Error) => process.stdout.write(`refused ${e.name}\n`),
  );
});
