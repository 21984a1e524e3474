// Batch calls (issue: agents and lists): 10,000 distinct rows through POST …/batch against the same
// rows as single routed calls at the same concurrency (32), svc and the sandbox in their own
// processes; rows a second and svc's CPU per row for each, alternating over three rounds.
import { join } from 'node:path';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import autocannon from 'autocannon';
import { buildCatalog } from '../build/pipeline.ts';
import { cpuUs, fmt, line, median, startRole, stopRoles } from './lib.ts';

const ROWS = Number(process.env.BENCH_ROWS ?? 10_000);
const CONCURRENCY = 32;

const start = (role: string, arg: string, dist: string) => startRole(role, arg, dist, { storage: 'memory' });

const dist = mkdtempSync(join(tmpdir(), 'svc-batch-'));
const built = await buildCatalog({ src: join(import.meta.dirname, '..', 'test', 'fixtures', 'catalog-src'), out: join(dist, 'catalog') });
if (built.errors.length) throw new Error(built.errors.join('\n'));
const sandbox = await start('sandbox', '', dist);
const svc = await start('svc', sandbox.url, dist);
const email = (tag: string, n: number) => `${tag}.jane${n}@acme.com`;

interface Run {
  rowsPerSecond: number;
  cpuPerRowUs: number;
}

async function viaBatch(tag: string): Promise<Run> {
  const body = Array.from({ length: ROWS }, (_, n) => JSON.stringify({ email: email(tag, n) })).join('\n');
  const cpu0 = cpuUs(svc.pid)!;
  const t0 = performance.now();
  const r = await fetch(`${svc.url}/proxy/people.email.verify/batch`, {
    method: 'POST',
    body,
    headers: { 'x-svc-token': svc.token, 'content-type': 'application/x-ndjson', 'x-svc-batch-concurrency': String(CONCURRENCY) },
  });
  const lines = (await r.text()).trim().split('\n');
  const seconds = (performance.now() - t0) / 1000;
  const summary = JSON.parse(lines[lines.length - 1]) as { rows: number; errors: number };
  if (summary.rows !== ROWS || summary.errors) throw new Error(`batch: ${JSON.stringify(summary)}`);
  return { rowsPerSecond: ROWS / seconds, cpuPerRowUs: (cpuUs(svc.pid)! - cpu0) / ROWS };
}

async function viaSingles(tag: string): Promise<Run> {
  let n = 0;
  const cpu0 = cpuUs(svc.pid)!;
  const t0 = performance.now();
  const r = await autocannon({
    url: `${svc.url}/proxy/people.email.verify`,
    connections: CONCURRENCY,
    amount: ROWS,
    method: 'POST',
    headers: { 'x-svc-token': svc.token, 'content-type': 'application/json' },
    requests: [{ setupRequest: (req) => ({ ...req, body: JSON.stringify({ email: email(tag, n++) }) }) }],
  });
  const seconds = (performance.now() - t0) / 1000;
  if (r.non2xx || r.errors) throw new Error(`singles: ${r.non2xx} non-2xx, ${r.errors} errors`);
  return { rowsPerSecond: ROWS / seconds, cpuPerRowUs: (cpuUs(svc.pid)! - cpu0) / ROWS };
}

process.stdout.write(`batch benchmark: ${ROWS} distinct rows, ${CONCURRENCY} at a time, people.email.verify served by its first child\n`);
await viaSingles('warm-s');
await viaBatch('warm-b');
const batches: Run[] = [];
const singles: Run[] = [];
for (let round = 0; round < 3; round++) {
  singles.push(await viaSingles(`s${round}`));
  batches.push(await viaBatch(`b${round}`));
}
const b = median(batches.map((r) => r.rowsPerSecond));
const s = median(singles.map((r) => r.rowsPerSecond));
line('(a) single calls, 32 connections (median of 3)', `${Math.round(s)} rows/s  ${Math.round(median(singles.map((r) => r.cpuPerRowUs)))} µs CPU/row`);
line('(b) one batch, concurrency 32 (median of 3)', `${Math.round(b)} rows/s  ${Math.round(median(batches.map((r) => r.cpuPerRowUs)))} µs CPU/row`);
line('(b) / (a) rows a second', `${fmt(b / s)}x`, '>= 1.5x', b / s >= 1.5);
stopRoles();
