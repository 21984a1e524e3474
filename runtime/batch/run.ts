// Runs a batch's rows, a few at a time, emitting each row's line as it finishes and a summary at the
// end. What one row is (a routed call, a hub tool's run) is a RowRunner's: each row is charged as its
// single call would be, under its own call_id; this file only schedules, budgets and counts.
import { isStorageOutage, STORAGE_OUTAGE_DETAIL } from '../state/unavailable.ts';
import { rootCause, StatusError } from '../util/fail.ts';
import { LEDGER_DAMAGED_DETAIL, LedgerDamaged } from '../state/ledger-store.ts';
import { canonical } from '../router/identical-calls.ts';
import type { Gone } from '../router/outcome.ts';
import { BatchBudget } from './budget.ts';
import { newCallId } from '../util/call-id.ts';
import type { BatchLimits } from './options.ts';
import type { BatchRow } from './input.ts';

export interface RowSvc {
  call_id?: string;
  served_by: string | null;
  cost_micro: number;
  shared?: boolean;
  [k: string]: unknown;
}

/** what one row came to (its line, less the id) */
export interface Outcome {
  status?: number;
  output?: unknown;
  _svc?: RowSvc;
  detail?: unknown;
  skipped?: 'budget';
  /** a dry run's plan, excluded, verification and worst_cost_micro */
  [planKey: string]: unknown;
}

export interface BatchSummary {
  event: 'summary';
  rows: number;
  hits: number;
  misses: number;
  errors: number;
  skipped: number;
  cost_micro: number;
  /** the rows not yet started were never run: the client went away, or asked the batch to stop */
  stopped?: 'disconnected' | 'asked';
}

/** the line emitted once when the batch is asked to stop: the rows still running, whose lines follow */
export interface StoppingLine {
  event: 'stopping';
  in_flight: Array<string | number>;
}

export type RowLine = { id: string | number } & Outcome;

/** What one row of a batch is: a routed call (runtime/batch/routed-rows.ts), a tool's run (runtime/routes/hub-batch-rows.ts). */
export interface RowRunner {
  /** the rows answer plans (a dry run): nothing is called or charged, so no budget applies */
  readonly dryRun: boolean;
  /**
   * One row, charged under `callId` exactly as its single call would be; `ceilingMicro`: what the
   * row may spend of the batch's budget (absent: the row's own ceiling); `gone`: whether the client
   * has left (a routed row then tries no further child). A refusal is thrown.
   */
  call(subject: Record<string, unknown>, callId: string, ceilingMicro: number | undefined, gone: Gone): Promise<Outcome>;
  /** from a dry run (nothing called or charged): the least the row can do anything with, and its worst case; a refusal is thrown */
  needs(subject: Record<string, unknown>): Promise<{ least: number; worst: number }>;
}

export interface BatchRun {
  runner: RowRunner;
  limits: BatchLimits;
  emit: (line: RowLine | BatchSummary | StoppingLine) => void;
  /** the client went away */
  signal: AbortSignal;
  /** the client asked the batch to stop (stop.ts): no row starts after it, the rows in flight are answered */
  stop?: AbortSignal;
}

/**
 * One row's outcome: refusals (402, 422, a storage 503…) are rows with a status, a detail and the
 * row's call id, not failures of the batch.
 */
async function callRow(run: BatchRun, subject: Record<string, unknown>, ceilingMicro?: number): Promise<Outcome> {
  const callId = newCallId();
  try {
    return await run.runner.call(subject, callId, ceilingMicro, () => run.signal.aborted);
  } catch (e) {
    return { ...refusal(e), call_id: callId };
  }
}

/** a refusal as a row: its status and the sentence (or the 422 list) the single call would have answered */
function refusal(e: unknown): Outcome {
  // storage away for this row: the sentence and status a single call gets; the next rows try again
  if (isStorageOutage(e)) return { status: 503, detail: STORAGE_OUTAGE_DETAIL };
  // the team's ledger damaged: every row is refused as its single call is, and the batch still ends with its summary
  if (rootCause(e) instanceof LedgerDamaged) return { status: 503, detail: LEDGER_DAMAGED_DETAIL };
  if (!(e instanceof StatusError)) throw e;
  const data = e.data as { detail?: unknown } | undefined;
  const refused: Outcome = { status: e.status, detail: e.status === 422 && data?.detail ? data.detail : e.message };
  // a refusal after part of the row ran (a tool's later step) names what that part was charged
  const charged = Number(new Headers(e.headers).get('x-svc-cost-micro') ?? 0);
  return charged > 0 ? { ...refused, _svc: { served_by: null, cost_micro: charged } } : refused;
}

/** what a row may need (RowRunner.needs), or its refusal as its outcome */
async function needs(runner: RowRunner, subject: Record<string, unknown>): Promise<{ least: number; worst: number } | { refused: Outcome }> {
  try {
    return await runner.needs(subject);
  } catch (e) {
    return { refused: refusal(e) };
  }
}

export async function runBatch(run: BatchRun, rows: BatchRow[]): Promise<BatchSummary> {
  const summary: BatchSummary = { event: 'summary', rows: rows.length, hits: 0, misses: 0, errors: 0, skipped: 0, cost_micro: 0 };
  const budget = run.limits.maxCostMicro === null ? null : new BatchBudget(run.limits.maxCostMicro);
  /** null: the row was never run (the batch ended first); none is charged */
  const firsts = new Map<string, Promise<Outcome | null>>();
  /** rows running: what a stop still waits for */
  const inFlight = new Map<string | number, Promise<Outcome>>();
  /** settles when the next row ends (its outcome is its answer): what a row the balance refused waits for */
  let rowEnded!: () => void;
  let nextEnd = new Promise<void>((resolve) => {
    rowEnded = resolve;
  });
  const ends = () => {
    const ended = rowEnded;
    nextEnd = new Promise<void>((resolve) => {
      rowEnded = resolve;
    });
    ended();
  };
  /** a row failed in a way no row answers (a bug): the batch's stream breaks, so no further row may start and be charged unseen */
  let broken = false;
  const ended = () => broken || run.signal.aborted || Boolean(run.stop?.aborted);
  run.stop?.addEventListener('abort', () => run.emit({ event: 'stopping', in_flight: [...inFlight.keys()] }), { once: true });

  const started = async (id: string | number, call: () => Promise<Outcome>): Promise<Outcome> => {
    for (;;) {
      const running = call();
      inFlight.set(id, running);
      let outcome: Outcome;
      try {
        outcome = await running;
      } catch (e) {
        ends(); // a row that fails is its own worker's to report: rows waiting on an end do not wait on it
        throw e;
      } finally {
        inFlight.delete(id);
      }
      // Refused for the balance with nothing charged while this batch's own rows hold it: the row
      // waits for one of them to end and tries again, as it would have run alone. Once none is left
      // running, the 402 is the row's answer. It waits for a row's end, not for any attempt to
      // answer: rows refused together would otherwise wake each other without end, none of them
      // freeing anything (each end wakes each waiting row once, so the retries are bounded).
      if (outcome.status !== 402 || outcome._svc || inFlight.size === 0 || ended()) {
        ends();
        return outcome;
      }
      await nextEnd;
    }
  };

  const once = async (id: string | number, subject: Record<string, unknown>): Promise<Outcome | null> => {
    if (!budget || run.runner.dryRun) return started(id, () => callRow(run, subject));
    const need = await needs(run.runner, subject);
    if ('refused' in need) return need.refused;
    const reserved = await budget.reserve(need.least, need.worst);
    if (reserved === null) return { skipped: 'budget' };
    let spent = 0;
    try {
      // the batch may have ended while the row waited for room in the budget
      if (ended()) return null;
      // the row's ceiling is what it reserved: it is planned within it (as a single call within its
      // Max-Cost), so it cannot spend more, even if its plan changed since the dry run
      const outcome = await started(id, () => callRow(run, subject, reserved));
      spent = outcome._svc?.cost_micro ?? 0;
      return outcome;
    } finally {
      budget.settle(reserved, spent);
    }
  };

  const finish = (id: string | number, outcome: Outcome) => {
    if (outcome.skipped) summary.skipped++;
    else if (outcome.status === 200 && outcome._svc?.served_by) summary.hits++;
    else if (outcome.status === 200 && outcome._svc) summary.misses++;
    else if (outcome.status !== 200) summary.errors++;
    summary.cost_micro += outcome._svc?.cost_micro ?? 0;
    run.emit({ id, ...outcome });
  };

  let next = 0;
  const worker = async () => {
    while (next < rows.length && !ended()) {
      const { id, subject } = rows[next++];
      const key = canonical(subject);
      const first = firsts.get(key);
      if (first) {
        // an identical subject: the first row's answer, charged once (to the first row)
        const o = await first;
        if (o) finish(id, o._svc ? { ...o, _svc: { ...o._svc, cost_micro: 0, shared: true } } : o);
        continue;
      }
      const p = once(id, subject);
      firsts.set(key, p);
      const o = await p;
      if (o) finish(id, o);
    }
  };
  const guarded = () =>
    worker().catch((e: unknown) => {
      broken = true;
      throw e;
    });
  await Promise.all(Array.from({ length: Math.min(run.limits.concurrency, rows.length) }, guarded));
  if (run.signal.aborted) summary.stopped = 'disconnected';
  else if (run.stop?.aborted) summary.stopped = 'asked';
  return summary;
}
