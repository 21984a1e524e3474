// Routed throughput per state backend, in one run (issue: several instances on Redis): svc on
// memory, on the embedded durable files and on Redis, each a process of its own served by the same
// sandbox process, 50 connections, three alternating rounds compared by medians; then two svc
// processes sharing Redis, loaded together, against one. Redis is a redis-server of the bench's own,
// without AOF for the comparisons of svc's own cost and with `appendfsync always` (docs/deploy.md)
// for what durable money costs a call; last, what each AOF setting costs a ledger post.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildCatalog } from '../build/pipeline.ts';
import { fmt, line, load, middle, type LoadResult } from './lib.ts';
import { ownRedis, type Fsync, type OwnRedis } from '../test/helpers/redis-server.ts';
import { createState } from '../runtime/state/index.ts';

const seconds = Number(process.env.BENCH_SECONDS ?? 4);
const connections = 50;
const children: ChildProcess[] = [];
type Started = Record<string, string> & { pid: number };

async function start(role: string, arg: string, dist: string, storage = 'memory:'): Promise<Started> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(import.meta.dirname, 'routed-servers.ts'), role, arg, dist], { stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, SVC_STORAGE: storage } });
  children.push(child);
  return new Promise((resolve) => { child.stdout!.once('data', (d: Buffer) => resolve({ ...JSON.parse(d.toString().split('\n')[0]), pid: child.pid! })); });
}

const servers: OwnRedis[] = [await ownRedis('off'), await ownRedis('always')];
const [REDIS, REDIS_AOF] = servers.map((s) => s.url(0));

const dist = mkdtempSync(join(tmpdir(), 'svc-state-bench-'));
const built = await buildCatalog({ src: join(import.meta.dirname, '..', 'test', 'fixtures', 'catalog-src'), out: join(dist, 'catalog') });
if (built.errors.length) throw new Error(built.errors.join('\n'));
const sandbox = await start('sandbox', '', dist);
const svcs = {
  memory: await start('svc', sandbox.url, dist, 'memory:'),
  embedded: await start('svc', sandbox.url, dist, `fs:${mkdtempSync(join(tmpdir(), 'svc-state-bench-data-'))}`),
  redis: await start('svc', sandbox.url, dist, REDIS),
  redisAof: await start('svc', sandbox.url, dist, REDIS_AOF),
};
const second = await start('svc', sandbox.url, dist, REDIS);

let batch = 0;
const routed = (svc: Started, conns = connections) => {
  const tag = `b${batch++}`; // a fresh subject per request: nothing merges, every call is charged
  return load(`${svc.url}/proxy/people.email.verify`, {
    seconds, connections: conns, method: 'POST', server: svc.pid,
    headers: { 'x-svc-token': svc.token, 'content-type': 'application/json' }, body: (n) => JSON.stringify({ email: `${tag}.jane${n}@acme.com` }),
  });
};

process.stdout.write(`routed throughput per state backend (${connections} connections, ${seconds} s a run, medians of 3 alternating rounds)\n`);
for (const svc of [...Object.values(svcs), second]) await routed(svc); // warm-ups
const runs: Record<keyof typeof svcs, LoadResult[]> = { memory: [], embedded: [], redis: [], redisAof: [] };
const both: number[] = [];
for (let round = 0; round < 3; round++) {
  for (const name of Object.keys(svcs) as Array<keyof typeof svcs>) runs[name].push(await routed(svcs[name]));
  // two instances on Redis at once, half the connections each: the load balancer's view
  const pair = await Promise.all([routed(svcs.redis, connections / 2), routed(second, connections / 2)]);
  both.push(pair[0].rps + pair[1].rps);
}
const mid = (rs: LoadResult[]) => middle(rs, (r) => r.rps);
const [m, e, r, ra] = [mid(runs.memory), mid(runs.embedded), mid(runs.redis), mid(runs.redisAof)];
for (const [label, x] of [['memory', m], ['embedded (durable files)', e], ['redis (no AOF)', r], ['redis (appendfsync always)', ra]] as const) {
  line(`svc on ${label}`, `${Math.round(x.rps)} req/s  p50 ${x.p50} ms  p99 ${x.p99} ms${x.cpu === null ? '' : `  ${Math.round(x.cpu)} µs CPU/req`}`);
}
line('embedded / memory', `${fmt(e.rps / m.rps)}x`, '>= 0.85x', e.rps / m.rps >= 0.85);
line('redis / memory', `${fmt(r.rps / m.rps)}x`, '>= 0.7x', r.rps / m.rps >= 0.7);
line('redis (appendfsync always) / memory', `${fmt(ra.rps / m.rps)}x`);
if (m.cpu !== null && e.cpu !== null && r.cpu !== null) line('svc CPU per call: embedded, redis / memory', `${fmt(e.cpu / m.cpu)}x, ${fmt(r.cpu / m.cpu)}x`);
const pair = middle(both, (x) => x);
line('two instances on redis (no AOF), together', `${Math.round(pair)} req/s`);
line('two instances / one, on redis', `${fmt(pair / r.rps)}x`, '>= 1.6x (cores allowing)', pair / r.rps >= 1.6);
for (const child of children) child.kill('SIGTERM');

// What durability costs one ledger post: 20,000 posts, 50 in flight, on each AOF setting.
const POSTS = 20_000;
for (const fsync of ['off', 'everysec', 'always'] as Fsync[]) {
  const server = await ownRedis(fsync);
  servers.push(server);
  const state = await createState({ storage: { kind: 'redis', url: server.url(0) }, dataDir: tmpdir(), secret: 'bench' });
  const t0 = performance.now();
  let next = 0;
  await Promise.all(Array.from({ length: 50 }, async () => { while (next < POSTS) { next++; await state.atomics.post('bench', { kind: 'credit', amount_micro: 1 }); } }));
  const s = (performance.now() - t0) / 1000;
  line(`ledger posts/s, appendfsync ${fsync === 'off' ? '(no AOF)' : fsync}`, `${Math.round(POSTS / s)}`);
  await state.close();
}
for (const server of servers) await server.stop();
