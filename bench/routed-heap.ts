// What a routed call costs the garbage collector, counted rather than timed, so that it reads the
// same on a noisy machine: svc (as `npm start` runs it, embedded storage) and svc's plumbing (its body
// reader and client exchange without routing, bench/routed-servers.ts) each serve a fixed number of
// routed calls against the trivial upstream with node's GC trace on, between two marks that each
// follow a full collection. Per call: bytes allocated, bytes promoted to the old generation (what
// outlives two young collections) and the collector's pause on the main thread. BENCH_BEFORE=<another
// checkout, built> adds that checkout's svc; BENCH_STORAGE=redis runs svc on a redis-server of the
// bench's own (no persistence) instead; BENCH_CATALOG=real the catalog npm start serves (bench/lib.ts).
import { closeSync, mkdtempSync, openSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildBenchCatalog, fmt, line, load, startRole, stopRoles } from './lib.ts';
import { ownRedis } from '../test/helpers/redis-server.ts';
import { gcTotals, type GcTotals } from '../test/helpers/gc-trace.ts';

const BEFORE = process.env.BENCH_BEFORE;
/** calls measured at 32 connections; a third as many on one */
const CALLS = Number(process.env.BENCH_CALLS ?? 30_000);
const MARK = 'svc-bench-mark';
// SIGUSR2: a full collection, then a line in the trace; what lies between two such lines is the run's own
const marker = `data:text/javascript,process.on('SIGUSR2',()=>{globalThis.gc();process.stdout.write('${MARK}\\n')})`;

const redis = process.env.BENCH_STORAGE === 'redis' ? await ownRedis('off') : null;
const dir = mkdtempSync(join(tmpdir(), 'svc-heap-'));
const catalog = await buildBenchCatalog(dir);
const upstream = await startRole('trivial', '', dir, { storage: 'memory' });

interface Side {
  label: string;
  trace: string;
  fd: number;
  role: Awaited<ReturnType<typeof startRole>>;
}
/** `db`: each svc its own Redis database, so that two checkouts do not share teams or ledgers */
async function side(label: string, role: string, db: number, root?: string): Promise<Side> {
  const trace = join(dir, `${label.replaceAll(' ', '-')}.trace`);
  const fd = openSync(trace, 'w');
  const nodeArgs = ['--trace-gc-nvp', '--expose-gc', '--import', marker];
  return { label, trace, fd, role: await startRole(role, upstream.url, dir, { storage: redis ? redis.url(db) : 'embedded', root, nodeArgs, stdout: fd }) };
}
const sides = [await side('svc', 'svc', 1)];
if (BEFORE) sides.push(await side('svc before', 'svc', 2, BEFORE));
sides.push(await side('svc plumbing only', 'plumbing', 3));

/** the collections between the last two marks */
const sinceMark = (trace: string) => gcTotals(readFileSync(trace, 'utf8').split(`${MARK}\n`).at(-2)!);

async function marked(s: Side): Promise<void> {
  const before = readFileSync(s.trace, 'utf8').split(MARK).length;
  process.kill(s.role.pid, 'SIGUSR2');
  while (readFileSync(s.trace, 'utf8').split(MARK).length === before) await new Promise((r) => setTimeout(r, 50));
}

let n = 0;
const routed = (s: Side, connections: number, calls: number) =>
  load(`${s.role.url}/proxy/people.email.verify`, {
    calls,
    connections,
    method: 'POST',
    headers: { 'x-svc-token': s.role.token, 'content-type': 'application/json' },
    body: () => JSON.stringify({ email: `heap${n++}.jane@acme.com` }),
  });

process.stdout.write(
  `what routed calls cost the collector (${catalog}; ${redis ? 'Redis' : 'embedded'} storage; ${CALLS} calls at 32 connections, ${Math.round(CALLS / 3)} on one)\n`,
);
for (const connections of [32, 1]) {
  const calls = connections === 1 ? Math.round(CALLS / 3) : CALLS;
  const read: GcTotals[] = [];
  for (const s of sides) {
    await routed(s, connections, Math.round(calls / 3)); // warm-up
    await marked(s);
    await routed(s, connections, calls);
    await marked(s);
    read.push(sinceMark(s.trace));
  }
  for (const [i, s] of sides.entries()) {
    const g = read[i];
    line(`${s.label}, ${connections} connection${connections === 1 ? '' : 's'}: allocated per call`, `${Math.round(g.allocated / calls)} B`);
    line('  promoted to the old generation per call', `${Math.round(g.promoted / calls)} B`);
    line('  collector pause per call (main thread)', `${fmt((g.pauseMs * 1000) / calls)} µs`);
    line('  young / full collections', `${g.young} / ${g.full}`);
  }
  // ratios of totals over the same number of calls
  const ratios = (a: GcTotals, b: GcTotals) => `${fmt(a.allocated / b.allocated)}x ${fmt(a.promoted / b.promoted)}x ${fmt(a.pauseMs / b.pauseMs)}x`;
  line(`svc / svc plumbing only, ${connections}: allocated, promoted, pause`, ratios(read[0], read[read.length - 1]));
  if (BEFORE) line(`svc / svc before, ${connections}: allocated, promoted, pause`, ratios(read[0], read[1]));
}
for (const s of sides) closeSync(s.fd);
stopRoles();
await redis?.stop();
process.exit(0);
