// svc's own cost per routed call, with nothing to hide it: the upstream is a node:http server that
// answers one fixed body at once, and svc is compared with a bare forwarder to that same upstream in
// the same run. 32 connections for throughput; one connection for added latency, where a closed
// loop's mean latency is exactly 1 / throughput (so it is read from throughput, finer than
// autocannon's whole-millisecond percentiles). Every server runs in its own process.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildCatalog } from '../build/pipeline.ts';
import { fmt, line, load, middle, startRole, stopRoles, type LoadResult } from './lib.ts';

const seconds = Number(process.env.BENCH_SECONDS ?? 4);
const STORAGE = process.env.BENCH_STORAGE === 'embedded' ? 'embedded' : 'memory';
const PROFILE = process.env.BENCH_PROFILE === '1';
const CONNECTIONS = 32;

const dist = mkdtempSync(join(tmpdir(), 'svc-trivial-'));
const built = await buildCatalog({ src: join(import.meta.dirname, '..', 'test', 'fixtures', 'catalog-src'), out: join(dist, 'catalog') });
if (built.errors.length) throw new Error(built.errors.join('\n'));
const start = (role: string, arg = '') => startRole(role, arg, dist, { storage: STORAGE, profile: PROFILE });
const upstream = await start('trivial');
const keys = upstream.keys as unknown as Record<string, string>;
const svc = await start('svc', upstream.url);
const forwarder = await start('forwarder', upstream.url);

const childPath = (n: number) => `/checkco/check?address=jane${n}%40acme.com`;
const direct = (connections: number) => load(upstream.url, { seconds, connections, path: childPath, headers: { 'x-check-key': keys.checkco } });
const viaForwarder = (connections: number) => load(forwarder.url, { seconds, connections, path: childPath, headers: { 'x-check-key': keys.checkco }, server: forwarder.pid });
const routed = (connections: number, round: string) => load(`${svc.url}/proxy/people.email.verify`, {
  seconds, connections, method: 'POST', server: svc.pid, headers: { 'x-svc-token': svc.token, 'content-type': 'application/json' },
  body: (n) => JSON.stringify({ email: `${round}.jane${n}@acme.com` }),
});

process.stdout.write(`routed calls against a trivial upstream (${seconds} s runs; svc state ${STORAGE === 'memory' ? 'in memory' : 'embedded, durable'})\n`);
await viaForwarder(CONNECTIONS); // warm-ups
await routed(CONNECTIONS, 'warm');
// alternating rounds, compared by medians, so a noisy stretch does not fall on one side only
const mid = (runs: LoadResult[]) => middle(runs, (r) => r.rps);
const fRuns: LoadResult[] = [];
const sRuns: LoadResult[] = [];
for (let round = 0; round < 3; round++) {
  fRuns.push(await viaForwarder(CONNECTIONS));
  sRuns.push(await routed(CONNECTIONS, `r${round}`));
}
const f = mid(fRuns);
const s = mid(sRuns);
const cpu = (r: LoadResult) => (r.cpu === null ? '' : `  ${Math.round(r.cpu)} µs CPU/req`);
line(`bare forwarder, ${CONNECTIONS} connections (median of 3)`, `${Math.round(f.rps)} req/s${cpu(f)}`);
line(`svc routed call, ${CONNECTIONS} connections (median of 3)`, `${Math.round(s.rps)} req/s${cpu(s)}`);
line('svc throughput / forwarder', `${fmt(s.rps / f.rps)}x`, '>= 0.9x', s.rps / f.rps >= 0.9);
if (f.cpu !== null && s.cpu !== null) line('svc CPU per request / forwarder', `${fmt(s.cpu / f.cpu)}x`);

const meanMs = (r: LoadResult) => 1000 / r.rps;
const d1 = mid([await direct(1), await direct(1), await direct(1)]);
const f1 = mid([await viaForwarder(1), await viaForwarder(1), await viaForwarder(1)]);
const s1 = mid([await routed(1, 'solo0'), await routed(1, 'solo1'), await routed(1, 'solo2')]);
const fAdded = meanMs(f1) - meanMs(d1);
const sAdded = meanMs(s1) - meanMs(d1);
line('direct, 1 connection: mean latency', `${fmt(meanMs(d1) * 1000, 0)} µs`);
line('forwarder added latency, 1 connection', `${fmt(fAdded * 1000, 0)} µs`);
line('svc added latency, 1 connection', `${fmt(sAdded * 1000, 0)} µs`);
line('svc added latency / forwarder added latency', `${fmt(sAdded / fAdded)}x`, '<= 1.5x', sAdded / fAdded <= 1.5);
// on one connection all of a call's CPU is on its path, and CPU is far less noisy than the clock here
if (f1.cpu !== null && s1.cpu !== null) line('CPU per request on 1 connection, svc / forwarder', `${Math.round(s1.cpu)} / ${Math.round(f1.cpu)} µs = ${fmt(s1.cpu / f1.cpu)}x`);
stopRoles(PROFILE);
