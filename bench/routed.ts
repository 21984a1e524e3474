// Routed-call overhead (issue: routed calls), 50 connections each, against baselines measured in this
// run: (a) straight to a sandbox child, (b) a bare undici forwarder to it (undici's dispatch, the
// leanest general-purpose client call; (b2) the same with undici's request() API), (c) svc served by the first child, (d) svc served
// by the second child after a miss. Servers run in their own processes.
// BENCH_PROFILE=1 writes a CPU profile of the svc process to bench/profiles/.
import { join } from 'node:path';
import { buildCatalog } from '../build/pipeline.ts';
import { fmt, line, load, middle, startRole, stopRoles, storageWords, type LoadOptions, type LoadResult } from './lib.ts';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';

const seconds = Number(process.env.BENCH_SECONDS ?? 4);
/** `BENCH_STORAGE=embedded` measures the durable default instead of in-memory state */
const STORAGE = process.env.BENCH_STORAGE === 'embedded' ? 'embedded' : 'memory';
const PROFILE = process.env.BENCH_PROFILE === '1';
const connections = 50;
const start = (role: string, arg: string, dist: string) => startRole(role, arg, dist, { storage: STORAGE, profile: PROFILE });

/** autocannon for this bench's duration and connections (bodies and paths differ per request, so merging cannot help svc) */
const run = (url: string, opts: LoadOptions) => load(url, { seconds, connections, ...opts });

const dist = mkdtempSync(join(tmpdir(), 'svc-routed-'));
const built = await buildCatalog({ src: join(import.meta.dirname, '..', 'test', 'fixtures', 'catalog-src'), out: join(dist, 'catalog') });
if (built.errors.length) throw new Error(built.errors.join('\n'));
const sandbox = await start('sandbox', '', dist);
const keys = sandbox.keys as unknown as Record<string, string>;
const svc = await start('svc', sandbox.url, dist);
const forwarder = await start('forwarder', sandbox.url, dist);
const forwarderRequest = await start('forwarder-request', sandbox.url, dist);

const childPath = (n: number) => `/checkco/check?address=jane${n}%40acme.com`;
const direct = (conns = connections) => run(sandbox.url, { connections: conns, path: childPath, headers: { 'x-check-key': keys.checkco } });
const viaForwarder = (via = forwarder) => run(via.url, { path: childPath, headers: { 'x-check-key': keys.checkco }, server: via.pid });
const routed = (email: (n: number) => string, conns = connections) =>
  run(`${svc.url}/proxy/people.email.verify`, {
    connections: conns,
    method: 'POST',
    server: svc.pid,
    headers: { 'x-svc-token': svc.token, 'content-type': 'application/json' },
    body: (n) => JSON.stringify({ email: email(n) }),
  });

process.stdout.write(
  `routed-call benchmarks (${connections} connections unless said, ${seconds} s each; svc state ${STORAGE === 'memory' ? 'in memory' : storageWords()})\n`,
);
await direct(); // warm-ups: JIT and connection pools, for both sides
await routed((n) => `warm${n}@acme.com`);
const a = await direct();
// The forwarders and svc alternate over three rounds and are compared by their medians, so a noisy
// stretch of the machine does not fall on one side only.
const bRuns: LoadResult[] = [];
const b2Runs: LoadResult[] = [];
const cRuns: LoadResult[] = [];
for (let round = 0; round < 3; round++) {
  bRuns.push(await viaForwarder());
  b2Runs.push(await viaForwarder(forwarderRequest));
  cRuns.push(await routed((n) => `r${round}.jane${n}@acme.com`));
}
const mid = (runs: LoadResult[]) => middle(runs, (r) => r.rps);
const b = mid(bRuns);
const b2 = mid(b2Runs);
const c = mid(cRuns);
const d = await routed((n) => `nohit-checkco.jane${n}@acme.com`);
for (const [label, r] of [
  ['(a) direct to the sandbox child', a],
  ['(b) bare undici forwarder, dispatch (median of 3)', b],
  ['(b2) bare undici forwarder, request() (median of 3)', b2],
  ['(c) svc, served by the first child (median of 3)', c],
  ['(d) svc, second child after a miss', d],
] as const) {
  line(label, `${Math.round(r.rps)} req/s  p50 ${r.p50} ms  p99 ${r.p99} ms${r.cpu === null ? '' : `  ${Math.round(r.cpu)} µs CPU/req`}`);
}
line('(c) throughput / (b)', `${fmt(c.rps / b.rps)}x`, '>= 0.8x', c.rps / b.rps >= 0.8);
line('(c) throughput / (b2)', `${fmt(c.rps / b2.rps)}x`);
if (b.cpu !== null && c.cpu !== null) line('(c) CPU per request / (b)', `${fmt(c.cpu / b.cpu)}x`);
line('(c) p50 added over (a), 50 connections (mostly queueing)', `${fmt(c.p50 - a.p50)} ms`);
line('(c) p99 added over (a), 50 connections (mostly queueing)', `${fmt(c.p99 - a.p99)} ms`);
// Added latency proper: one connection, so no request waits behind another (Little's law makes the
// 50-connection figures connections / throughput, which even the bare forwarder inflates).
const a1 = await direct(1);
const c1 = await routed((n) => `solo${n}@acme.com`, 1);
line('(a) direct, 1 connection', `p50 ${a1.p50} ms  p99 ${a1.p99} ms`);
line('(c) svc, 1 connection', `p50 ${c1.p50} ms  p99 ${c1.p99} ms`);
line('(c) p50 added over (a), 1 connection', `${fmt(c1.p50 - a1.p50)} ms`, '<= 1 ms', c1.p50 - a1.p50 <= 1);
line('(c) p99 added over (a), 1 connection', `${fmt(c1.p99 - a1.p99)} ms`, '<= 3 ms', c1.p99 - a1.p99 <= 3);
line('(d) throughput / (b)', `${fmt(d.rps / b.rps)}x`);
stopRoles(PROFILE);
