// svc's own cost per routed call, with nothing to hide it: the upstream is a node:http server that
// answers one fixed body at once, and svc is compared in the same run with two bare forwarders to
// that same upstream: node:http on both sides (the baseline the targets name) and undici's dispatch
// (the same client call svc makes, the stricter floor). 32 connections for throughput; one
// connection for added latency, where a closed loop's mean latency is exactly 1 / throughput (so it
// is read from throughput, finer than autocannon's whole-millisecond percentiles). Every server runs
// in its own process.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildCatalog } from '../build/pipeline.ts';
import { fmt, line, load, middle, startRole, stopRoles, type LoadResult } from './lib.ts';

const seconds = Number(process.env.BENCH_SECONDS ?? 4);
const STORAGE = process.env.BENCH_STORAGE === 'embedded' ? 'embedded' : 'memory';
const PROFILE = process.env.BENCH_PROFILE === '1';
const CONNECTIONS = 32;
const ROUNDS = 3;

const dist = mkdtempSync(join(tmpdir(), 'svc-trivial-'));
const built = await buildCatalog({ src: join(import.meta.dirname, '..', 'test', 'fixtures', 'catalog-src'), out: join(dist, 'catalog') });
if (built.errors.length) throw new Error(built.errors.join('\n'));
const start = (role: string, arg = '') => startRole(role, arg, dist, { storage: STORAGE, profile: PROFILE });
const upstream = await start('trivial');
const keys = upstream.keys as unknown as Record<string, string>;
const svc = await start('svc', upstream.url);
const forwarders = [
  { label: 'node:http forwarder', role: await start('forwarder-http', upstream.url) },
  { label: 'undici dispatch forwarder', role: await start('forwarder', upstream.url) },
];

const childPath = (n: number) => `/checkco/check?address=jane${n}%40acme.com`;
const direct = (connections: number) => load(upstream.url, { seconds, connections, path: childPath, headers: { 'x-check-key': keys.checkco } });
const via = (forwarder: Awaited<ReturnType<typeof startRole>>, connections: number) =>
  load(forwarder.url, { seconds, connections, path: childPath, headers: { 'x-check-key': keys.checkco }, server: forwarder.pid });
const routed = (connections: number, round: string) => load(`${svc.url}/proxy/people.email.verify`, {
  seconds, connections, method: 'POST', server: svc.pid, headers: { 'x-svc-token': svc.token, 'content-type': 'application/json' },
  body: (n) => JSON.stringify({ email: `${round}.jane${n}@acme.com` }),
});

/** every side once per round, in turn, so a noisy stretch does not fall on one side only; medians */
async function alternate(connections: number): Promise<{ svc: LoadResult; forwarders: LoadResult[] }> {
  const runs = { svc: [] as LoadResult[], forwarders: forwarders.map(() => [] as LoadResult[]) };
  for (let round = 0; round < ROUNDS; round++) {
    for (const [i, f] of forwarders.entries()) runs.forwarders[i].push(await via(f.role, connections));
    runs.svc.push(await routed(connections, `c${connections}r${round}`));
  }
  const mid = (rs: LoadResult[]) => middle(rs, (r) => r.rps);
  return { svc: mid(runs.svc), forwarders: runs.forwarders.map(mid) };
}
const cpu = (r: LoadResult) => (r.cpu === null ? '' : `  ${Math.round(r.cpu)} µs CPU/req`);

process.stdout.write(`routed calls against a trivial upstream (${seconds} s runs; svc state ${STORAGE === 'memory' ? 'in memory' : 'embedded, durable'})\n`);
for (const f of forwarders) await via(f.role, CONNECTIONS); // warm-ups
await routed(CONNECTIONS, 'warm');

const many = await alternate(CONNECTIONS);
line(`svc routed call, ${CONNECTIONS} connections (median of ${ROUNDS})`, `${Math.round(many.svc.rps)} req/s${cpu(many.svc)}`);
for (const [i, f] of forwarders.entries()) {
  const r = many.forwarders[i];
  line(`${f.label}, ${CONNECTIONS} connections`, `${Math.round(r.rps)} req/s${cpu(r)}`);
  line(`  svc throughput / ${f.label}`, `${fmt(many.svc.rps / r.rps)}x`, '>= 0.9x', many.svc.rps / r.rps >= 0.9);
  if (r.cpu !== null && many.svc.cpu !== null) line(`  svc CPU per request / ${f.label}`, `${fmt(many.svc.cpu / r.cpu)}x`);
}

const meanMs = (r: LoadResult) => 1000 / r.rps;
const d1 = middle([await direct(1), await direct(1), await direct(1)], (r) => r.rps);
const one = await alternate(1);
const sAdded = meanMs(one.svc) - meanMs(d1);
line('direct, 1 connection: mean latency', `${fmt(meanMs(d1) * 1000, 0)} µs`);
line('svc added latency, 1 connection', `${fmt(sAdded * 1000, 0)} µs${cpu(one.svc)}`);
for (const [i, f] of forwarders.entries()) {
  const r = one.forwarders[i];
  const fAdded = meanMs(r) - meanMs(d1);
  line(`${f.label} added latency, 1 connection`, `${fmt(fAdded * 1000, 0)} µs${cpu(r)}`);
  line(`  svc added latency / ${f.label}'s`, `${fmt(sAdded / fAdded)}x`, '<= 1.5x', sAdded / fAdded <= 1.5);
  // on one connection all of a call's CPU is on its path, and CPU is far less noisy than the clock here
  if (r.cpu !== null && one.svc.cpu !== null) line(`  svc CPU per request / ${f.label}`, `${fmt(one.svc.cpu / r.cpu)}x`);
}
stopRoles(PROFILE);
