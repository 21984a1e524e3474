// `svc batch`'s run, apart from the process it runs in: its options, where it writes (stderr,
// stdout) and the two Ctrl-Cs come in, and it answers the exit code, so a test calls it in process.
import { rmSync } from 'node:fs';
import { parseUsdCeiling } from '../runtime/state/money.ts';
import { Columns, parseMap, type Fields } from './batch-columns.ts';
import { Progress } from './batch-progress.ts';
import { resumeFrom } from './batch-resume.ts';
import { askStop, streamBatch, type Line } from './batch-stream.ts';
import { readTable, TableWriter, type Record_ } from './batch-table.ts';
import { CliFailure, EXIT } from './fail.ts';
import { detailOf, ok, type Env } from './http.ts';
import { svcTarget, type SvcTarget } from './target.ts';

/** what the server takes in one batch (runtime/batch/input.ts): longer lists go as several */
const CHUNK = 10_000;
const MAX_CONCURRENCY = 32;

export interface BatchOptions {
  capability: string;
  file: string;
  out: string;
  map?: string;
  maxCost?: string;
  concurrency: string;
  rejects?: string;
  json: boolean;
}

export interface BatchIo {
  env: Env;
  stderr: (text: string) => void;
  stdout: (text: string) => void;
  tty: boolean;
  /** the first Ctrl-C: start no more rows, finish and write the rows in flight */
  stop: AbortSignal;
  /** the second: stop waiting for them */
  abandon: AbortSignal;
}

/** the run in numbers, as --json prints it; rows = answered_before + answered + refused + failed + skipped_budget + not_started + abandoned */
export interface BatchSummary {
  rows: number;
  answered_before: number;
  answered: number;
  hits: number;
  misses: number;
  refused: number;
  failed: number;
  skipped_budget: number;
  not_started: number;
  /** rows in flight when a second Ctrl-C gave up on them: they may have been charged */
  abandoned: number[];
  cost_micro: number;
  output: string;
  rejects: string | null;
  interrupted: boolean;
  exit_code: number;
}

async function capabilityOf(target: SvcTarget, name: string): Promise<{ path: string; fields: Fields }> {
  const meta = await ok<{ proxy_prefix: string }>(`${target.url}/meta`);
  const path = `${meta.proxy_prefix}/${name.replace(/^svc\./, '')}`;
  const doc = await ok<{ paths: Record<string, { post?: { requestBody: { content: Record<string, { schema: { properties: Fields } }> } } }> }>(`${target.url}/openapi.json`);
  const op = doc.paths[path]?.post;
  if (!op) throw new CliFailure(`No routed capability '${name}' at ${target.url}; svc search lists them, e.g. people.email.find.`, EXIT.usage);
  return { path, fields: op.requestBody.content['application/json'].schema.properties };
}

function checkedOptions(o: BatchOptions): { budgetMicro: number | null; concurrency: string } {
  let budgetMicro: number | null = null;
  if (o.maxCost !== undefined) {
    budgetMicro = parseUsdCeiling(o.maxCost);
    if (budgetMicro === null) throw new CliFailure(`--max-cost takes a USD amount such as 5 or 0.25; got '${o.maxCost}'.`, EXIT.usage);
  }
  const n = Number(o.concurrency);
  if (!/^\d+$/.test(o.concurrency) || n < 1 || n > MAX_CONCURRENCY) throw new CliFailure(`--concurrency takes a whole number from 1 to ${MAX_CONCURRENCY}; got '${o.concurrency}'.`, EXIT.usage);
  return { budgetMicro, concurrency: String(n) };
}

/** `out.csv` → `out.rejects.csv` (the extension kept, so the rejects are the same kind of table) */
export const rejectsPathOf = (out: string): string => out.replace(/(\.[^./\\]*)?$/, (ext) => `.rejects${ext}`);

/** a refused or failed row's reason as one sentence */
function reasonOf(line: Line): string {
  if (line.status === 200) return 'The balance was held by rows in flight, so no provider was tried; run again when it is free.';
  // the sentence the single call's refusal would print
  return detailOf({ status: line.status ?? 0, headers: new Headers(), data: { detail: line.detail } });
}

/** row numbers as a sentence's list, runs shortened: 3, 7-9, 12 */
function rowList(ids: number[]): string {
  const sorted = [...ids].sort((a, b) => a - b);
  const runs: string[] = [];
  for (let i = 0; i < sorted.length; i++) {
    let j = i;
    while (j + 1 < sorted.length && sorted[j + 1] === sorted[j] + 1) j++;
    runs.push(j > i ? `${sorted[i]}-${sorted[j]}` : String(sorted[i]));
    i = j;
  }
  return runs.join(', ');
}

export async function runBatchCommand(o: BatchOptions, io: BatchIo): Promise<number> {
  const target = svcTarget(io.env);
  const { budgetMicro, concurrency } = checkedOptions(o);
  const rejectsPath = o.rejects ?? rejectsPathOf(o.out);
  if (new Set([o.file, o.out, rejectsPath]).size < 3) throw new CliFailure(`The input, -o and --rejects must be three different files; got ${o.file}, ${o.out} and ${rejectsPath}.`, EXIT.usage);
  const input = readTable(o.file);
  const cap = await capabilityOf(target, o.capability);
  const columns = new Columns(input.columns, cap.fields, parseMap(o.map, input.columns, cap.fields, o.capability));
  const resumed = resumeFrom(o.out, input.rows, columns);
  if (resumed.upgraded) io.stderr(`svc: ${o.out} was written by an older svc, without a row column: its ${resumed.upgraded} lines were matched to the input rows sending the same subject and rewritten with their row numbers (their call_id left empty).\n`);

  const todo = input.rows.map((row, i) => ({ id: i + 1, row, subject: columns.subject(row) })).filter((r) => !resumed.answered.has(r.id));
  const s: BatchSummary = { rows: input.rows.length, answered_before: resumed.answered.size, answered: 0, hits: 0, misses: 0, refused: 0, failed: 0, skipped_budget: 0, not_started: 0, abandoned: [], cost_micro: 0, output: o.out, rejects: null, interrupted: false, exit_code: 0 };
  const writer = new TableWriter(o.out, resumed.header);
  // the rejects file holds this run's rejects only: one left by an earlier run would name rows since answered
  rmSync(rejectsPath, { force: true });
  let rejects: TableWriter | null = null;
  const reject = (row: Record_, id: number, status: number, reason: string) => {
    rejects ??= new TableWriter(rejectsPath, [columns.svc('row'), columns.svc('status'), columns.svc('reason'), ...input.columns], false);
    rejects.write({ ...row, [columns.svc('row')]: id, [columns.svc('status')]: status, [columns.svc('reason')]: reason });
    s.rejects = rejectsPath;
    if (status < 500) s.refused++;
    else s.failed++;
  };

  const progress = new Progress(todo.length, io.stderr, io.tty);
  let left = budgetMicro;
  /** the batch being answered: its id (to ask it to stop), rows sent and not yet answered, rows in flight when it stopped */
  let current: { batchId: string | null; pending: Set<number>; inFlight: number[] | null } | null = null;
  const askToStop = () => {
    const id = current?.batchId;
    if (id) void askStop(target, cap.path, id).then((why) => why && io.stderr(`svc: could not ask svc to stop the batch (${why}); its rows keep running. Ctrl-C again abandons them.\n`));
  };
  const onStop = () => {
    io.stderr(`\nsvc: stopping: no new row starts; waiting for the rows in flight to finish and be written (Ctrl-C again abandons them).\n`);
    askToStop();
  };
  io.stop.addEventListener('abort', onStop, { once: true });

  try {
    for (let start = 0; start < todo.length && !io.stop.aborted; start += CHUNK) {
      if (left !== null && left <= 0) {
        s.skipped_budget += todo.length - start;
        break;
      }
      const chunk = todo.slice(start, start + CHUNK);
      const rowOf = new Map(chunk.map((r) => [r.id, r.row]));
      const open = { batchId: null as string | null, pending: new Set(rowOf.keys()), inFlight: null as number[] | null };
      current = open;
      const headers: Record<string, string> = { 'x-svc-batch-concurrency': concurrency };
      if (left !== null) headers['x-svc-batch-max-cost'] = (left / 1e6).toFixed(6);
      const onLine = (line: Line) => {
        if (line.event === 'stopping') {
          open.inFlight = line.in_flight ?? [];
          io.stderr(open.inFlight.length ? `svc: no row starts any more; waiting for rows ${rowList(open.inFlight)}.\n` : 'svc: no row starts any more, and none is in flight.\n');
        }
        if (line.event === 'summary' && left !== null) left -= line.cost_micro ?? 0;
        if (line.event) return;
        open.pending.delete(line.id);
        const row = rowOf.get(line.id)!;
        const cost = line._svc?.cost_micro ?? 0;
        s.cost_micro += cost;
        progress.row(Boolean(line._svc?.served_by), cost);
        if (line.skipped) s.skipped_budget++;
        // answered rows (hit or miss) are written; a row the balance stopped (held by rows in flight)
        // is a 200 that no provider answered, so it is a reject to run again, as a 402 is
        else if (line.status === 200 && line._svc && line._svc.stopped !== 'balance') {
          writer.write(columns.line(row, line.id, { output: line.output, servedBy: line._svc.served_by, costMicro: cost, callId: line._svc.call_id ?? '' }));
          s.answered++;
          if (line._svc.served_by) s.hits++;
          else s.misses++;
        } else reject(row, line.id, line.status === 200 ? 402 : (line.status ?? 0), reasonOf(line));
      };
      try {
        await streamBatch(target, cap.path, chunk, headers, onLine, {
          signal: io.abandon,
          onOpen: (id) => {
            open.batchId = id;
            if (io.stop.aborted) askToStop();
          },
        });
      } catch (e) {
        if (!io.abandon.aborted) throw e;
        // before the batch said which rows were in flight, every row sent and not answered may have run
        s.abandoned = (open.inFlight ?? [...open.pending]).filter((id) => open.pending.has(id));
        break;
      }
    }
  } finally {
    io.stop.removeEventListener('abort', onStop);
  }

  s.interrupted = io.stop.aborted;
  s.not_started = todo.length - s.answered - s.refused - s.failed - s.skipped_budget - s.abandoned.length;
  s.exit_code = s.interrupted ? EXIT.interrupted : s.refused ? EXIT.refused : s.failed ? EXIT.server : s.skipped_budget || s.not_started ? EXIT.miss : EXIT.ok;
  if (s.abandoned.length) io.stderr(`svc: abandoned the rows in flight: rows ${rowList(s.abandoned)} may have been charged without their answer being written (GET /teams/me/ledger lists every charge); running again calls them again.\n`);
  progress.finish([
    s.answered_before ? `  (${s.answered_before} answered before)` : '',
    s.skipped_budget ? `  ${s.skipped_budget} rows left by --max-cost: run again to call them` : '',
    s.not_started ? `  ${s.not_started} rows not started (stopped): run again to call them` : '',
    s.refused ? `  ${s.refused} rows refused (4xx), each named with its reason in ${rejectsPath}` : '',
    s.failed ? `  ${s.failed} rows failed (5xx), named in ${rejectsPath}: run again to retry them` : '',
  ].join(''));
  if (o.json) io.stdout(`${JSON.stringify(s)}\n`);
  return s.exit_code;
}
