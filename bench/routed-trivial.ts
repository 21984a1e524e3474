// The guard rails of svc's HTTP path: svc (as `npm start` runs it), a bare node:http forwarder and
// the upstream itself, alternating in the same rounds, against an upstream that answers one fixed
// body at once, so svc's own cost shows. Routed calls carry distinct subjects (identical calls in
// flight would be merged). 32 connections for throughput (svc / the forwarder); one connection for
// the latency each adds to the upstream's own (p50 of sequential calls, read against the same round's
// direct p50). Every server runs in its own process. BENCH_BEFORE=<another checkout, built> runs
// that checkout's svc in the same rounds too: before and after in one run.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildBenchCatalog, childRequest, fmt, forwardedLoad, line, median, routedLoad, routedRequest, sequentialP50, startRole, stopRoles } from './lib.ts';

const seconds = Number(process.env.BENCH_SECONDS ?? 4);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const BEFORE = process.env.BENCH_BEFORE;
/** BENCH_PROFILE=1: CPU profiles of svc and the forwarder in bench/profiles/ */
const PROFILE = process.env.BENCH_PROFILE === '1';
const CONNECTIONS = 32;
/** sequential calls per round for the one-connection p50 */
const CALLS = Number(process.env.BENCH_CALLS ?? 2_000);

const dist = mkdtempSync(join(tmpdir(), 'svc-trivial-'));
const catalog = await buildBenchCatalog(dist);
const STORAGE = process.env.BENCH_STORAGE === 'embedded' ? 'embedded' : 'memory';
const start = (role: string, arg = '', root?: string) => startRole(role, arg, dist, { storage: STORAGE, root, profile: PROFILE });
const upstream = await start('trivial');
const forwarder = await start('forwarder-http', upstream.url);
const svcs = [{ label: 'svc', role: await start('svc', upstream.url) }];
if (BEFORE) svcs.push({ label: 'svc before', role: await start('svc', upstream.url, BEFORE) });

process.stdout.write(
  `guard rails against a trivial upstream (${seconds} s runs, ${ROUNDS} rounds; ${catalog}; svc state ${STORAGE}${BEFORE ? `; before: ${BEFORE}` : ''})\n`,
);
// the comparison holds only while each routed call makes one upstream request, as the forwarder does
for (const s of svcs) {
  const r = await fetch(`${s.role.url}/proxy/people.email.verify`, {
    method: 'POST',
    headers: { 'x-svc-token': s.role.token, 'content-type': 'application/json' },
    body: '{"email":"probe@acme.com"}',
  });
  const tried = ((await r.json()) as { _svc?: { tried?: unknown[] } })._svc?.tried;
  if (r.status !== 200 || tried?.length !== 1) throw new Error(`${s.label}: a routed call made ${tried?.length ?? 'no'} attempts (${r.status}), not one`);
}
await forwardedLoad(forwarder.url, { seconds: 2, connections: CONNECTIONS }); // warm-ups
for (const s of svcs) await routedLoad(s.role, 'warm', { seconds: 2, connections: CONNECTIONS });

// throughput at 32 connections, every side once per round in turn
const rps = { direct: [] as number[], forwarder: [] as number[], svcs: svcs.map(() => [] as number[]) };
/** the serving process's CPU µs per call, per round */
const cpu = { forwarder: [] as number[], svcs: svcs.map(() => [] as number[]) };
for (let round = 0; round < ROUNDS; round++) {
  rps.direct.push((await forwardedLoad(upstream.url, { seconds, connections: CONNECTIONS })).rps);
  const f = await forwardedLoad(forwarder.url, { seconds, connections: CONNECTIONS, server: forwarder.pid });
  rps.forwarder.push(f.rps);
  cpu.forwarder.push(f.cpu ?? Number.NaN);
  for (const [i, s] of svcs.entries()) {
    const r = await routedLoad(s.role, `r${round}`, { seconds, connections: CONNECTIONS });
    rps.svcs[i].push(r.rps);
    cpu.svcs[i].push(r.cpu ?? Number.NaN);
  }
}
/** the median of each round's own ratio */
const ratio = (mine: number[], theirs: number[]) => median(mine.map((m, k) => m / theirs[k]));
line(`upstream itself, ${CONNECTIONS} connections (median)`, `${Math.round(median(rps.direct))} req/s`);
line(
  `node:http forwarder, ${CONNECTIONS} connections (median)`,
  `${Math.round(median(rps.forwarder))} req/s, ${Math.round(median(cpu.forwarder))} µs CPU/call`,
);
for (const [i, s] of svcs.entries()) {
  line(
    `${s.label} routed calls, ${CONNECTIONS} connections (median)`,
    `${Math.round(median(rps.svcs[i]))} req/s, ${Math.round(median(cpu.svcs[i]))} µs CPU/call`,
  );
  const r = ratio(rps.svcs[i], rps.forwarder);
  line(`  ${s.label} / forwarder (median of the rounds' ratios)`, `${fmt(r)}x`, s.label === 'svc' ? '>= 0.7x' : undefined, r >= 0.7);
}
if (BEFORE) {
  line("svc / svc before, throughput (the rounds' ratios)", `${fmt(ratio(rps.svcs[0], rps.svcs[1]))}x`);
  line("svc / svc before, CPU per call (the rounds' ratios)", `${fmt(ratio(cpu.svcs[0], cpu.svcs[1]))}x`);
}

// one connection: p50 of sequential calls, each round's added latency read against its own direct p50
const added = { forwarder: [] as number[], svcs: svcs.map(() => [] as number[]) };
const directP50: number[] = [];
for (let round = 0; round < ROUNDS; round++) {
  const d = await sequentialP50(upstream.url, childRequest, CALLS);
  directP50.push(d);
  added.forwarder.push((await sequentialP50(forwarder.url, childRequest, CALLS)) - d);
  for (const [i, s] of svcs.entries()) added.svcs[i].push((await sequentialP50(s.role.url, routedRequest(s.role, `one${round}`), CALLS)) - d);
}
line('upstream itself, 1 connection: p50 (median)', `${fmt(median(directP50) * 1000, 0)} µs`);
line('node:http forwarder added p50, 1 connection (median)', `${fmt(median(added.forwarder) * 1000, 0)} µs`);
for (const [i, s] of svcs.entries()) {
  const a = median(added.svcs[i]);
  line(`${s.label} added p50, 1 connection (median)`, `${fmt(a * 1000, 0)} µs`, s.label === 'svc' ? '<= 250 µs' : undefined, a <= 0.25);
  line(`  ${s.label} added / forwarder added (median of the rounds' ratios)`, `${fmt(ratio(added.svcs[i], added.forwarder))}x`);
}
stopRoles(PROFILE);
