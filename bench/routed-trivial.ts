// svc's own cost per routed call, with nothing to hide it: the upstream is a node:http server that
// answers one fixed body at once, and svc (as `npm start` runs it) is compared in the same run with
// two bare forwarders to that same upstream: node:http on both sides (the baseline the targets name)
// and undici's dispatch (the leanest general-purpose client call, the stricter floor). 32 connections for
// throughput; one connection for added latency, where a closed loop's mean latency is exactly
// 1 / throughput (so it is read from throughput, finer than autocannon's whole-millisecond
// percentiles). Every server runs in its own process. BENCH_BEFORE=<another checkout, built> runs
// that checkout's svc too, in the same rounds: before and after in one run. svc's plumbing (its body
// reader and client exchange without any routing, bench/routed-servers.ts) runs in the same rounds
// too, so each run says how much of a call's CPU routing itself takes.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildBenchCatalog, fmt, forwardedLoad, line, median, middle, routedLoad, startRole, stopRoles, storageWords, type LoadResult, type Role } from './lib.ts';

const seconds = Number(process.env.BENCH_SECONDS ?? 4);
const STORAGE = process.env.BENCH_STORAGE === 'embedded' ? 'embedded' : 'memory';
const PROFILE = process.env.BENCH_PROFILE === '1';
const BEFORE = process.env.BENCH_BEFORE;
const CONNECTIONS = 32;
/** BENCH_ROUNDS: more rounds steady the medians on a noisy machine */
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);

const dist = mkdtempSync(join(tmpdir(), 'svc-trivial-'));
const catalog = await buildBenchCatalog(dist);
const start = (role: string, arg = '', root?: string) => startRole(role, arg, dist, { storage: STORAGE, profile: PROFILE, root });
const upstream = await start('trivial');
/** `routes`: a real svc, held to the targets; svc's plumbing is measured beside them, not held to them */
const svcs: Array<{ label: string; role: Role; routes: boolean }> = [{ label: 'svc', role: await start('svc', upstream.url), routes: true }];
if (BEFORE) svcs.push({ label: 'svc before', role: await start('svc', upstream.url, BEFORE), routes: true });
svcs.push({ label: 'svc plumbing only', role: await start('plumbing', upstream.url), routes: false });
const forwarders = [
  { label: 'node:http forwarder', role: await start('forwarder-http', upstream.url) },
  { label: 'undici dispatch forwarder', role: await start('forwarder', upstream.url) },
];

const direct = (connections: number) => forwardedLoad(upstream.url, { seconds, connections });
const via = (forwarder: Role, connections: number) => forwardedLoad(forwarder.url, { seconds, connections, server: forwarder.pid });
const routed = (svc: Role, connections: number, round: string) => routedLoad(svc, round, { seconds, connections });

/** the median of each round's own ratio of `of(mine)` to `of(theirs)` (rounds where either is unknown left out) */
function roundRatio(mine: LoadResult[], theirs: LoadResult[], of: (r: LoadResult) => number | null): number | null {
  const ratios = mine.flatMap((r, k) => { const [a, b] = [of(r), of(theirs[k])]; return a === null || b === null ? [] : [a / b]; });
  return ratios.length ? median(ratios) : null;
}
const rps = (r: LoadResult) => r.rps;

/**
 * every side once per round, in turn, so a noisy stretch does not fall on one side only; medians, and
 * `paired[svc][forwarder]`: the median of each round's own throughput ratio, which a machine drifting
 * between rounds moves less than a ratio of medians
 */
async function alternate(connections: number): Promise<{ svcs: LoadResult[]; forwarders: LoadResult[]; paired: number[][]; rounds: LoadResult[][]; forwarderRounds: LoadResult[][]; direct: LoadResult[] }> {
  const runs = { svcs: svcs.map(() => [] as LoadResult[]), forwarders: forwarders.map(() => [] as LoadResult[]), direct: [] as LoadResult[] };
  for (let round = 0; round < ROUNDS; round++) {
    // on one connection each round's added latencies are read against its own direct latency too
    if (connections === 1) runs.direct.push(await direct(1));
    for (const [i, f] of forwarders.entries()) runs.forwarders[i].push(await via(f.role, connections));
    for (const [i, s] of svcs.entries()) runs.svcs[i].push(await routed(s.role, connections, `c${connections}r${round}`));
  }
  const mid = (rs: LoadResult[]) => middle(rs, (r) => r.rps);
  const paired = runs.svcs.map((mine) => runs.forwarders.map((theirs) => roundRatio(mine, theirs, rps)!));
  return { svcs: runs.svcs.map(mid), forwarders: runs.forwarders.map(mid), paired, rounds: runs.svcs, forwarderRounds: runs.forwarders, direct: runs.direct };
}
const cpu = (r: LoadResult) => (r.cpu === null ? '' : `  ${Math.round(r.cpu)} µs CPU/req`);

process.stdout.write(`routed calls against a trivial upstream (${seconds} s runs; ${catalog}; svc state ${STORAGE === 'memory' ? 'in memory' : storageWords()}${BEFORE ? `; before: ${BEFORE}` : ''})\n`);
// the comparison holds only while each routed call makes one upstream request, as a forwarder does
for (const s of svcs.filter((s) => s.routes)) {
  const r = await fetch(`${s.role.url}/proxy/people.email.verify`, { method: 'POST', headers: { 'x-svc-token': s.role.token, 'content-type': 'application/json' }, body: '{"email":"probe@acme.com"}' });
  const tried = ((await r.json()) as { _svc?: { tried?: unknown[] } })._svc?.tried;
  if (r.status !== 200 || tried?.length !== 1) throw new Error(`${s.label}: a routed call made ${tried?.length ?? 'no'} attempts (${r.status}), not one: the upstream's answer is no hit for the first child planned`);
}
for (const f of forwarders) await via(f.role, CONNECTIONS); // warm-ups
for (const s of svcs) await routed(s.role, CONNECTIONS, 'warm');

const many = await alternate(CONNECTIONS);
for (const [j, s] of svcs.entries()) {
  const mine = many.svcs[j];
  line(`${s.label}${s.routes ? ' routed call' : ''}, ${CONNECTIONS} connections (median of ${ROUNDS})`, `${Math.round(mine.rps)} req/s${cpu(mine)}`);
  for (const [i, f] of forwarders.entries()) {
    const r = many.forwarders[i];
    if (j === 0) line(`${f.label}, ${CONNECTIONS} connections`, `${Math.round(r.rps)} req/s${cpu(r)}`);
    line(`  ${s.label} throughput / ${f.label}`, `${fmt(mine.rps / r.rps)}x`, s.routes ? '>= 0.9x' : undefined, mine.rps / r.rps >= 0.9);
    line(`    the same, median of the rounds' own ratios`, `${fmt(many.paired[j][i])}x`);
    if (r.cpu !== null && mine.cpu !== null) line(`  ${s.label} CPU per request / ${f.label}`, `${fmt(mine.cpu / r.cpu)}x`);
  }
}

/** svc's CPU per call over its plumbing's, measured in the same rounds: what routing itself adds */
function routingShare(results: LoadResult[]): void {
  const [mine, plumbing] = [results[0], results[svcs.findIndex((s) => !s.routes)]];
  if (mine.cpu !== null && plumbing.cpu !== null) line('svc CPU per request / svc plumbing only (what routing adds)', `${fmt(mine.cpu / plumbing.cpu)}x`);
}

/** with BENCH_BEFORE: svc against that checkout's, round by round (the medians of each round's own ratios) */
function againstBefore([mine, theirs]: LoadResult[][]): void {
  if (!BEFORE) return;
  line("svc / svc before, throughput (the rounds' own ratios)", `${fmt(roundRatio(mine, theirs, rps)!)}x`);
  const cpuRatio = roundRatio(mine, theirs, (r) => r.cpu);
  if (cpuRatio !== null) line("svc / svc before, CPU per request (the same)", `${fmt(cpuRatio)}x`);
}
routingShare(many.svcs);
againstBefore(many.rounds);

const meanMs = (r: LoadResult) => 1000 / r.rps;
const d1 = middle([await direct(1), await direct(1), await direct(1)], (r) => r.rps);
const one = await alternate(1);
line('direct, 1 connection: mean latency', `${fmt(meanMs(d1) * 1000, 0)} µs`);
for (const [i, f] of forwarders.entries()) {
  const r = one.forwarders[i];
  line(`${f.label} added latency, 1 connection`, `${fmt((meanMs(r) - meanMs(d1)) * 1000, 0)} µs${cpu(r)}`);
}
for (const [j, s] of svcs.entries()) {
  const mine = one.svcs[j];
  const sAdded = meanMs(mine) - meanMs(d1);
  line(`${s.label} added latency, 1 connection`, `${fmt(sAdded * 1000, 0)} µs${cpu(mine)}`);
  for (const [i, f] of forwarders.entries()) {
    const r = one.forwarders[i];
    line(`  ${s.label} added latency / ${f.label}'s`, `${fmt(sAdded / (meanMs(r) - meanMs(d1)))}x`);
    // each round's own ratio, its added latencies read against its own direct latency: a machine
    // drifting between rounds moves this less than the ratio of medians above
    const ratios = one.rounds[j].map((m, k) => (meanMs(m) - meanMs(one.direct[k])) / (meanMs(one.forwarderRounds[i][k]) - meanMs(one.direct[k])));
    line("    the same, median of the rounds' own ratios", `${fmt(median(ratios))}x`, s.routes ? '<= 1.5x' : undefined, median(ratios) <= 1.5);
    // on one connection all of a call's CPU is on its path, and CPU is far less noisy than the clock here
    if (r.cpu !== null && mine.cpu !== null) line(`  ${s.label} CPU per request / ${f.label}`, `${fmt(mine.cpu / r.cpu)}x`);
  }
}
routingShare(one.svcs);
againstBefore(one.rounds);
stopRoles(PROFILE);
