// `svc batch`'s run, apart from the process it runs in: its options, where it writes (stderr,
// stdout) and the two Ctrl-Cs come in, and it answers the exit code, so a test calls it in process.
import { parseUsdCeiling } from '../runtime/state/money.ts';
import { Columns, parseMap } from './batch-columns.ts';
import { Outcome, rowList } from './batch-outcome.ts';
import { resumeFrom } from './batch-resume.ts';
import { askStop, streamBatch, type Line } from './batch-stream.ts';
import { readTable } from './batch-table.ts';
import { CliFailure, EXIT } from './fail.ts';
import type { Env } from './http.ts';
import { batchTargetOf } from './batch-target.ts';
import { svcTarget } from './target.ts';

/** what the server takes in one batch (runtime/batch/input.ts): longer lists go as several */
const CHUNK = 10_000;
const MAX_CONCURRENCY = 32;

export interface BatchOptions {
  /** a routed capability, or hub:<tool_id>[@N] (batch-target.ts) */
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

function checkedOptions(o: BatchOptions): { budgetMicro: number | null; concurrency: string } {
  let budgetMicro: number | null = null;
  if (o.maxCost !== undefined) {
    budgetMicro = parseUsdCeiling(o.maxCost);
    if (budgetMicro === null) throw new CliFailure(`--max-cost takes a USD amount such as 5 or 0.25; got '${o.maxCost}'.`, EXIT.usage);
  }
  const n = Number(o.concurrency);
  if (!/^\d+$/.test(o.concurrency) || n < 1 || n > MAX_CONCURRENCY)
    throw new CliFailure(`--concurrency takes a whole number from 1 to ${MAX_CONCURRENCY}; got '${o.concurrency}'.`, EXIT.usage);
  return { budgetMicro, concurrency: String(n) };
}

/** `out.csv` → `out.rejects.csv` (the extension kept, so the rejects are the same kind of table) */
export const rejectsPathOf = (out: string): string => out.replace(/(\.[^./\\]*)?$/, (ext) => `.rejects${ext}`);

export async function runBatchCommand(o: BatchOptions, io: BatchIo): Promise<number> {
  const target = svcTarget(io.env);
  const { budgetMicro, concurrency } = checkedOptions(o);
  const rejectsPath = o.rejects ?? rejectsPathOf(o.out);
  if (new Set([o.file, o.out, rejectsPath]).size < 3)
    throw new CliFailure(`The input, -o and --rejects must be three different files; got ${o.file}, ${o.out} and ${rejectsPath}.`, EXIT.usage);
  const input = readTable(o.file);
  const what = await batchTargetOf(target, o.capability, o.out);
  if (what.note) io.stderr(what.note);
  const columns = new Columns(input.columns, what.fields, parseMap(o.map, input.columns, what.fields, what.name));
  const lacking = columns.lacking(what.required);
  if (lacking.length)
    throw new CliFailure(
      `${what.name} needs ${lacking.map((f) => `'${f}'`).join(', ')} in every row, and no column of ${o.file} gives ${lacking.length > 1 ? 'them' : 'it'}: name a column so, or map one with --map "column=${lacking[0]}".`,
      EXIT.usage,
    );
  const resumed = resumeFrom(o.out, input.rows, columns);
  if (resumed.upgraded)
    io.stderr(
      `svc: ${o.out} was written by an older svc, without a row column: its ${resumed.upgraded} lines were matched to the input rows sending the same subject and rewritten with their row numbers (their call_id left empty).\n`,
    );

  const todo = input.rows.map((row, i) => ({ id: i + 1, row, subject: columns.subject(row) })).filter((r) => !resumed.answered.has(r.id));
  const outcome = new Outcome(
    { out: o.out, rejects: rejectsPath, rows: input.rows.length, answeredBefore: resumed.answered.size, header: resumed.header, todo: todo.length },
    columns,
    io,
  );

  let left = budgetMicro;
  /** the batch being answered: its id (to ask it to stop), rows sent and not yet answered, rows in flight when it stopped */
  let current: { batchId: string | null; pending: Set<number>; inFlight: number[] | null } | null = null;
  const askToStop = () => {
    const id = current?.batchId;
    if (id)
      void askStop(target, what.path, id).then(
        (why) => why && io.stderr(`svc: could not ask svc to stop the batch (${why}); its rows keep running. Ctrl-C again abandons them.\n`),
      );
  };
  const onStop = () => {
    io.stderr(`\nsvc: stopping: no new row starts; waiting for the rows in flight to finish and be written (Ctrl-C again abandons them).\n`);
    askToStop();
  };
  io.stop.addEventListener('abort', onStop, { once: true });

  let abandoned: number[] = [];
  try {
    for (let start = 0; start < todo.length && !io.stop.aborted; start += CHUNK) {
      if (left !== null && left <= 0) {
        outcome.skipped(todo.length - start);
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
          io.stderr(
            open.inFlight.length
              ? `svc: no row starts any more; waiting for rows ${rowList(open.inFlight)}.\n`
              : 'svc: no row starts any more, and none is in flight.\n',
          );
        }
        if (line.event === 'summary' && left !== null) left -= line.cost_micro ?? 0;
        if (line.event) return;
        open.pending.delete(line.id);
        outcome.row(line, rowOf.get(line.id)!);
      };
      try {
        await streamBatch(target, what, chunk, headers, onLine, {
          signal: io.abandon,
          onOpen: (id) => {
            open.batchId = id;
            if (io.stop.aborted) askToStop();
          },
        });
      } catch (e) {
        if (!io.abandon.aborted) throw e;
        // before the batch said which rows were in flight, every row sent and not answered may have run
        abandoned = (open.inFlight ?? [...open.pending]).filter((id) => open.pending.has(id));
        break;
      }
    }
  } finally {
    io.stop.removeEventListener('abort', onStop);
  }

  const code = outcome.end(io.stop.aborted, abandoned);
  if (o.json) io.stdout(`${JSON.stringify(outcome.summary)}\n`);
  return code;
}
