// Where a routed call's time goes on one connection, the latency target's case: svc and the undici
// dispatch forwarder (the leanest general-purpose client call) each carry bench/phase-probe.mjs,
// which splits every call into before the child request, the wait for the child answer, and after it. The
// trivial upstream answers at once, so the wait is the upstream and the way there and back, the same
// for both; svc's time beyond the forwarder's in the two other phases is what its own work adds to a
// call's latency. Each round measures the upstream directly too, so a round's added latencies are
// read against its own baseline, and the target's ratio (svc's added latency over the node:http
// forwarder's) is the median of the rounds' own ratios, less swayed by a machine drifting between
// rounds. BENCH_CATALOG=real as in routed-trivial; BENCH_STORAGE=embedded for the durable files.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildBenchCatalog, fmt, forwardedLoad, line, median, routedLoad, startRole, stopRoles, storageWords, type LoadResult } from './lib.ts';

const seconds = Number(process.env.BENCH_SECONDS ?? 3);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7);
const STORAGE = process.env.BENCH_STORAGE === 'embedded' ? 'embedded' : 'memory';
const PROBE = join(import.meta.dirname, 'phase-probe.mjs');
process.env.PHASE_DIR = mkdtempSync(join(tmpdir(), 'svc-phases-'));

const dist = mkdtempSync(join(tmpdir(), 'svc-phases-dist-'));
const catalog = await buildBenchCatalog(dist);
const start = (role: string, arg = '', probe = false) => startRole(role, arg, dist, { storage: STORAGE, nodeArgs: probe ? ['--import', PROBE] : [] });
const upstream = await start('trivial');
const svc = await start('svc', upstream.url, true);
const undici = await start('forwarder', upstream.url, true);
const http = await start('forwarder-http', upstream.url);

const forwarded = (url: string, pid?: number, connections = 1) => forwardedLoad(url, { seconds, connections, server: pid });
const routed = (round: string, connections = 1) => routedLoad(svc, round, { seconds, connections });

interface Phases {
  before: number;
  wait: number;
  after: number;
  calls: number;
}
/** per probed server, the lines of its file read so far */
const asked = new Map([
  [svc.pid, 0],
  [undici.pid, 0],
]);
/** the probe's sums since it was last asked, per call in µs */
async function phasesOf(pid: number): Promise<Phases> {
  process.kill(pid, 'SIGUSR2');
  const file = join(process.env.PHASE_DIR!, `${pid}.jsonl`);
  for (let waited = 0; waited < 2000; waited += 20) {
    await new Promise((r) => setTimeout(r, 20));
    let lines: string[] = [];
    try {
      lines = readFileSync(file, 'utf8').trim().split('\n');
    } catch {
      continue;
    }
    if (lines.length > asked.get(pid)!) {
      asked.set(pid, lines.length);
      const s = JSON.parse(lines[lines.length - 1]) as Phases;
      return { before: (s.before / s.calls) * 1000, wait: (s.wait / s.calls) * 1000, after: (s.after / s.calls) * 1000, calls: s.calls };
    }
  }
  throw new Error(`no phases from ${pid}`);
}
// warm-ups (V8 still optimizes svc's code some 10,000 calls in), then the probes' sums emptied
for (let k = 0; k < 2; k++) {
  await forwarded(undici.url, undici.pid, 32);
  await forwarded(http.url, http.pid, 32);
  await routed(`warm${k}`, 32);
}
await phasesOf(svc.pid);
await phasesOf(undici.pid);

const us = (r: LoadResult) => 1e6 / r.rps;
interface Round {
  direct: number;
  http: LoadResult;
  undici: LoadResult;
  svc: LoadResult;
  svcPhases: Phases;
  undiciPhases: Phases;
}
const rounds: Round[] = [];
for (let k = 0; k < ROUNDS; k++) {
  const direct = us(await forwarded(upstream.url));
  const h = await forwarded(http.url, http.pid);
  const u = await forwarded(undici.url, undici.pid);
  const undiciPhases = await phasesOf(undici.pid);
  const s = await routed(`r${k}`);
  const svcPhases = await phasesOf(svc.pid);
  rounds.push({ direct, http: h, undici: u, svc: s, svcPhases, undiciPhases });
}

const med = (f: (r: Round) => number) => median(rounds.map(f));
const added = (r: Round, of: LoadResult) => us(of) - r.direct;
process.stdout.write(
  `one connection, ${ROUNDS} rounds of ${seconds} s, medians (${catalog}; svc state ${STORAGE === 'memory' ? 'in memory' : storageWords()})\n`,
);
line(
  'direct to the upstream: mean latency',
  `${fmt(
    med((r) => r.direct),
    0,
  )} µs`,
);
const sides: Array<[string, (r: Round) => LoadResult]> = [
  ['node:http forwarder', (r) => r.http],
  ['undici dispatch forwarder', (r) => r.undici],
  ['svc routed call', (r) => r.svc],
];
for (const [label, of] of sides)
  line(
    `${label}: added latency`,
    `${fmt(
      med((r) => added(r, of(r))),
      0,
    )} µs  ${fmt(
      med((r) => of(r).cpu ?? 0),
      0,
    )} µs CPU`,
  );
const target = med((r) => added(r, r.svc) / added(r, r.http));
line("svc added latency / node:http forwarder's (the rounds' own ratios)", `${fmt(target)}x`, '<= 1.5x', target <= 1.5);
line('  each round', rounds.map((r) => fmt(added(r, r.svc) / added(r, r.http))).join(' '));
line("svc added latency / undici forwarder's (the same)", `${fmt(med((r) => added(r, r.svc) / added(r, r.undici)))}x`);
process.stdout.write('phases of a call in the server (µs, medians of the rounds): svc / undici dispatch forwarder / svc minus the forwarder\n');
const PHASES = { before: 'request in → child request out', wait: 'child request out → child answer in', after: 'child answer in → answer out' } as const;
for (const [phase, label] of Object.entries(PHASES) as Array<[keyof typeof PHASES, string]>) {
  const [mine, theirs, more] = [med((r) => r.svcPhases[phase]), med((r) => r.undiciPhases[phase]), med((r) => r.svcPhases[phase] - r.undiciPhases[phase])];
  line(`  ${label}`, `${fmt(mine, 0)} / ${fmt(theirs, 0)} / ${fmt(more, 0)}`);
}
stopRoles();
