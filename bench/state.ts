// Routed throughput per state backend, in one run (issue: several instances on Redis): svc on
// memory, on the embedded durable files and on Redis, each a process of its own served by the same
// sandbox process, 50 connections, three alternating rounds compared by medians; then two svc
// processes sharing Redis, loaded together, against one. Redis is a redis-server of the bench's own,
// without AOF for the comparisons of svc's own cost and with `appendfsync always` (docs/deploy.md)
// for what durable money costs a call; last, what each AOF setting costs a ledger post. Beside each
// throughput, the CPU per call of every process on the path (load generator, sandbox, svc,
// redis-server): on a machine of few cores their sum, not svc alone, bounds what one more instance adds.
import { mkdtempSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { Redis } from 'ioredis';
import { join } from 'node:path';
import { buildCatalog } from '../build/pipeline.ts';
import { cpuUs, fmt, line, load, middle, startRole, stopRoles, type LoadResult } from './lib.ts';
import { ownRedis, type Fsync, type OwnRedis } from '../test/helpers/redis-server.ts';
import { randomUUID } from 'node:crypto';
import { createState, teamAccount, type State } from '../runtime/state/index.ts';
import { HOLD_TTL_MS, isRefusal, Spending } from '../runtime/money/spending.ts';

const seconds = Number(process.env.BENCH_SECONDS ?? 4);
const connections = 50;
type Started = Record<string, string> & { pid: number };

const start = (role: string, arg: string, dist: string, storage = 'memory:', env?: Record<string, string>): Promise<Started> =>
  startRole(role, arg, dist, { storage, env });

const servers: OwnRedis[] = [await ownRedis('off'), await ownRedis('always')];
const [REDIS, REDIS_AOF] = servers.map((s) => s.url(0));
const redisPid = async (url: string) => {
  const client = new Redis(url);
  const pid = Number(/process_id:(\d+)/.exec(await client.info('server'))![1]);
  client.disconnect();
  return pid;
};
const [REDIS_PID, REDIS_AOF_PID] = [await redisPid(REDIS), await redisPid(REDIS_AOF)];

const dist = mkdtempSync(join(tmpdir(), 'svc-state-bench-'));
const built = await buildCatalog({ src: join(import.meta.dirname, '..', 'test', 'fixtures', 'catalog-src'), out: join(dist, 'catalog') });
if (built.errors.length) throw new Error(built.errors.join('\n'));
const sandbox = await start('sandbox', '', dist);
const svcs = {
  memory: await start('svc', sandbox.url, dist, 'memory:'),
  embedded: await start('svc', sandbox.url, dist, `fs:${mkdtempSync(join(tmpdir(), 'svc-state-bench-data-'))}`),
  // every ledger line synced before its callers are answered (docs/teams-and-billing.md)
  embeddedSynced: await start('svc', sandbox.url, dist, `fs:${mkdtempSync(join(tmpdir(), 'svc-state-bench-data-'))}`, { SVC_LEDGER_SYNC_MS: '0' }),
  redis: await start('svc', sandbox.url, dist, REDIS),
  redisAof: await start('svc', sandbox.url, dist, REDIS_AOF),
};
const second = await start('svc', sandbox.url, dist, REDIS);

let batch = 0;
const routed = (svc: Started, conns = connections) => {
  const tag = `b${batch++}`; // a fresh subject per request: nothing merges, every call is charged
  return load(`${svc.url}/proxy/people.email.verify`, {
    seconds,
    connections: conns,
    method: 'POST',
    headers: { 'x-svc-token': svc.token, 'content-type': 'application/json' },
    body: (n) => JSON.stringify({ email: `${tag}.jane${n}@acme.com` }),
  });
};

/** CPU µs per call of each process on the path while `run` loads it; `self` is this process, the load generator */
type Path = { self: number; sandbox: number; svc: number; redis: number };
const cpuNow = (svcPids: number[], redis: number | null): Path => {
  const self = process.cpuUsage();
  return {
    self: self.user + self.system,
    sandbox: cpuUs(sandbox.pid) ?? 0,
    svc: svcPids.reduce((sum, pid) => sum + (cpuUs(pid) ?? 0), 0),
    redis: redis === null ? 0 : (cpuUs(redis) ?? 0),
  };
};
async function measured(
  svcPids: number[],
  redis: number | null,
  run: () => Promise<LoadResult[]>,
): Promise<{ rps: number; path: Path; results: LoadResult[] }> {
  const before = cpuNow(svcPids, redis);
  const results = await run();
  const after = cpuNow(svcPids, redis);
  const rps = results.reduce((sum, r) => sum + r.rps, 0);
  const calls = rps * seconds;
  const per = (k: keyof Path) => (after[k] - before[k]) / calls;
  return { rps, results, path: { self: per('self'), sandbox: per('sandbox'), svc: per('svc'), redis: per('redis') } };
}

const load0 = loadavg()[0];
process.stdout.write(
  `routed throughput per state backend (${connections} connections, ${seconds} s a run, medians of 3 alternating rounds; load average ${load0.toFixed(1)})\n`,
);
for (const svc of [...Object.values(svcs), second]) await routed(svc); // warm-ups
const redisOf = { memory: null, embedded: null, embeddedSynced: null, redis: REDIS_PID, redisAof: REDIS_AOF_PID };
type Name = keyof typeof svcs;
const runs: Record<Name, Array<Awaited<ReturnType<typeof measured>>>> = { memory: [], embedded: [], embeddedSynced: [], redis: [], redisAof: [] };
const both: Array<Awaited<ReturnType<typeof measured>>> = [];
for (let round = 0; round < 3; round++) {
  for (const name of Object.keys(svcs) as Name[]) runs[name].push(await measured([svcs[name].pid], redisOf[name], async () => [await routed(svcs[name])]));
  // two instances on Redis at once, half the connections each: the load balancer's view
  both.push(await measured([svcs.redis.pid, second.pid], REDIS_PID, () => Promise.all([routed(svcs.redis, connections / 2), routed(second, connections / 2)])));
}
const mid = (rs: Array<Awaited<ReturnType<typeof measured>>>) => middle(rs, (r) => r.rps);
const [m, e, es, r, ra] = [mid(runs.memory), mid(runs.embedded), mid(runs.embeddedSynced), mid(runs.redis), mid(runs.redisAof)];
const pathText = ({ self, sandbox: sb, svc, redis }: Path) => {
  const total = self + sb + svc + redis;
  return `CPU µs/call: svc ${Math.round(svc)}, redis-server ${Math.round(redis)}, sandbox ${Math.round(sb)}, load generator ${Math.round(self)}; all ${Math.round(total)} (2 cores: at most ${Math.round(2e6 / total)} calls/s)`;
};
for (const [label, x] of [
  ['memory', m],
  ['embedded (durable files)', e],
  ['embedded, each write synced', es],
  ['redis (no AOF)', r],
  ['redis (appendfsync always)', ra],
] as const) {
  const one = x.results[0];
  line(`svc on ${label}`, `${Math.round(x.rps)} req/s  p50 ${one.p50} ms  p99 ${one.p99} ms`);
  process.stdout.write(`  ${pathText(x.path)}\n`);
}
line('embedded / memory', `${fmt(e.rps / m.rps)}x`, '>= 0.85x', e.rps / m.rps >= 0.85);
line('embedded, each write synced / memory', `${fmt(es.rps / m.rps)}x`);
line('redis / memory', `${fmt(r.rps / m.rps)}x`, '>= 0.7x', r.rps / m.rps >= 0.7);
line('redis (appendfsync always) / memory', `${fmt(ra.rps / m.rps)}x`);
line('svc CPU per call: embedded, redis / memory', `${fmt(e.path.svc / m.path.svc)}x, ${fmt(r.path.svc / m.path.svc)}x`);
const pair = mid(both);
line('two instances on redis (no AOF), together', `${Math.round(pair.rps)} req/s`);
process.stdout.write(`  ${pathText(pair.path)}\n`);
line('two instances / one, on redis', `${fmt(pair.rps / r.rps)}x`, '>= 1.6x (cores allowing)', pair.rps / r.rps >= 1.6);
process.stdout.write(`load average at the end ${loadavg()[0].toFixed(1)}\n`);
stopRoles();

// What one paid attempt's money costs, in CPU (steadier than throughput on a shared machine): the
// path as it was (balance read, hold, charge, release: four Redis round trips) against the money
// module's now (a hold that reads the balance, a charge that drops the hold: two), alternated, 50 in
// flight, on memory and on Redis without AOF; svc's side is this process, Redis's its own.
const ATTEMPTS = 10_000;
async function fourSteps(state: State, teamId: number, n: number): Promise<void> {
  if ((await state.balance(teamId)) < 1_000) throw new Error('bench team ran dry');
  const id = randomUUID();
  if (!(await state.atomics.hold(teamAccount(teamId), id, 1_000, HOLD_TTL_MS)).held) throw new Error('bench hold refused');
  await state.charge(teamId, 700, { endpoint_id: 'bench.money', call_id: `c${n}` });
  await state.atomics.unhold(teamAccount(teamId), id);
}
async function twoSteps(spending: Spending, teamId: number, n: number): Promise<void> {
  const hold = await spending.reserve(teamId, 1_000, 1_000);
  if (isRefusal(hold)) throw new Error('bench hold refused');
  await hold.charge(700, { endpoint_id: 'bench.money', call_id: `c${n}` });
  hold.release();
}
async function moneyPath(state: State, redis: number | null, steps: (teamId: number, n: number) => Promise<void>): Promise<{ svc: number; redis: number }> {
  const { team } = (await state.createTeam(`money ${randomUUID()}`, 1_000_000_000_000))!;
  let next = 0;
  const before = cpuNow([], redis);
  await Promise.all(
    Array.from({ length: 50 }, async () => {
      while (next < ATTEMPTS) await steps(team.id, next++);
    }),
  );
  const after = cpuNow([], redis);
  return { svc: (after.self - before.self) / ATTEMPTS, redis: (after.redis - before.redis) / ATTEMPTS };
}
for (const [label, storage, pid] of [
  ['memory', { kind: 'memory' as const }, null],
  ['redis (no AOF)', { kind: 'redis' as const, url: REDIS }, REDIS_PID],
] as const) {
  const state = await createState({ storage, dataDir: tmpdir(), secret: 'bench' });
  const spending = new Spending(state);
  const was: Array<{ svc: number; redis: number }> = [];
  const now: Array<{ svc: number; redis: number }> = [];
  await moneyPath(state, pid, (t, n) => twoSteps(spending, t, n)); // warm-up
  for (let round = 0; round < 3; round++) {
    was.push(await moneyPath(state, pid, (t, n) => fourSteps(state, t, n)));
    now.push(await moneyPath(state, pid, (t, n) => twoSteps(spending, t, n)));
  }
  const [w, n] = [middle(was, (x) => x.svc), middle(now, (x) => x.svc)];
  const redisPart = (x: { redis: number }) => (pid === null ? '' : ` + redis-server ${x.redis.toFixed(1)}`);
  line(`money of a paid attempt on ${label}, CPU µs: 4 steps`, `svc ${w.svc.toFixed(1)}${redisPart(w)}`);
  line(`money of a paid attempt on ${label}, CPU µs: 2 steps`, `svc ${n.svc.toFixed(1)}${redisPart(n)}`);
  await state.close();
}

// What durability costs one ledger post: 20,000 posts, 50 in flight, on each AOF setting.
const POSTS = 20_000;
for (const fsync of ['off', 'everysec', 'always'] as Fsync[]) {
  const server = await ownRedis(fsync);
  servers.push(server);
  const state = await createState({ storage: { kind: 'redis', url: server.url(0) }, dataDir: tmpdir(), secret: 'bench' });
  const t0 = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: 50 }, async () => {
      while (next < POSTS) {
        next++;
        await state.atomics.post('bench', { kind: 'credit', amount_micro: 1 });
      }
    }),
  );
  const s = (performance.now() - t0) / 1000;
  line(`ledger posts/s, appendfsync ${fsync === 'off' ? '(no AOF)' : fsync}`, `${Math.round(POSTS / s)}`);
  await state.close();
}
for (const server of servers) await server.stop();
