// What one `svc batch` run came to, row by row: answered rows written to the output, refused and
// failed rows named in the rejects file, the counts, the final line, the --json summary and the
// exit code (docs/batch.md).
import { rmSync } from 'node:fs';
import type { Columns } from './batch-columns.ts';
import { Progress } from './batch-progress.ts';
import type { Line } from './batch-stream.ts';
import { TableWriter, type Record_ } from './batch-table.ts';
import { EXIT } from './fail.ts';
import { detailOf } from './http.ts';

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

/** a refused or failed row's reason: the sentence the single call's refusal would print */
function reasonOf(line: Line): string {
  if (line.status === 200) return 'The balance was held by rows in flight, so no provider was tried; run again when it is free.';
  return detailOf({ status: line.status ?? 0, headers: new Headers(), data: { detail: line.detail } });
}

/** row numbers as a sentence's list, runs shortened: 3, 7-9, 12 */
export function rowList(ids: number[]): string {
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

export class Outcome {
  readonly summary: BatchSummary;
  private readonly writer: TableWriter;
  private rejects: TableWriter | null = null;
  private readonly progress: Progress;

  constructor(
    private readonly o: { out: string; rejects: string; rows: number; answeredBefore: number; header: string[] | null; todo: number },
    private readonly columns: Columns,
    private readonly io: { stderr: (text: string) => void; tty: boolean },
  ) {
    this.summary = {
      rows: o.rows,
      answered_before: o.answeredBefore,
      answered: 0,
      hits: 0,
      misses: 0,
      refused: 0,
      failed: 0,
      skipped_budget: 0,
      not_started: 0,
      abandoned: [],
      cost_micro: 0,
      output: o.out,
      rejects: null,
      interrupted: false,
      exit_code: 0,
    };
    this.writer = new TableWriter(o.out, o.header);
    this.progress = new Progress(o.todo, io.stderr, io.tty);
    // the rejects file holds this run's rejects only: one left by an earlier run would name rows since answered
    rmSync(o.rejects, { force: true });
  }

  /** one row's line from the batch */
  row(line: Line, input: Record_): void {
    const s = this.summary;
    const cost = line._svc?.cost_micro ?? 0;
    s.cost_micro += cost;
    this.progress.row(Boolean(line._svc?.served_by), cost);
    if (line.skipped) s.skipped_budget++;
    // answered rows (hit or miss) are written; a row the balance stopped (held by rows in flight)
    // is a 200 that no provider answered, so it is a reject to run again, as a 402 is
    else if (line.status === 200 && line._svc && line._svc.stopped !== 'balance') {
      this.writer.write(
        this.columns.line(input, line.id, { output: line.output, servedBy: line._svc.served_by, costMicro: cost, callId: line._svc.call_id ?? '' }),
      );
      s.answered++;
      if (line._svc.served_by) s.hits++;
      else s.misses++;
    } else this.reject(input, line.id, line.status === 200 ? 402 : (line.status ?? 0), reasonOf(line));
  }

  /** rows the budget left before they were sent */
  skipped(rows: number): void {
    this.summary.skipped_budget += rows;
  }

  private reject(input: Record_, id: number, status: number, reason: string): void {
    const [row, st, why] = ['row', 'status', 'reason'].map((c) => this.columns.svc(c));
    this.rejects ??= new TableWriter(this.o.rejects, [row, st, why, ...this.columns.input], false);
    this.rejects.write({ [row]: id, [st]: status, [why]: reason, ...input });
    this.summary.rejects = this.o.rejects;
    if (status < 500) this.summary.refused++;
    else this.summary.failed++;
  }

  /** the run is over: the counts completed, the final line printed; answers the exit code */
  end(interrupted: boolean, abandoned: number[]): number {
    const s = this.summary;
    s.interrupted = interrupted;
    s.abandoned = abandoned;
    s.not_started = this.o.todo - s.answered - s.refused - s.failed - s.skipped_budget - abandoned.length;
    s.exit_code = interrupted ? EXIT.interrupted : s.refused ? EXIT.refused : s.failed ? EXIT.server : s.skipped_budget || s.not_started ? EXIT.miss : EXIT.ok;
    if (abandoned.length)
      this.io.stderr(
        `svc: abandoned the rows in flight: rows ${rowList(abandoned)} may have been charged without their answer being written (GET /teams/me/ledger lists every charge); running again calls them again.\n`,
      );
    this.progress.finish(
      [
        s.answered_before ? `  (${s.answered_before} answered before)` : '',
        s.skipped_budget ? `  ${rows(s.skipped_budget)} left by --max-cost: run again to call them` : '',
        s.not_started ? `  ${rows(s.not_started)} not started (stopped): run again to call them` : '',
        s.refused ? `  ${rows(s.refused)} refused (4xx), each named with its reason in ${this.o.rejects}` : '',
        s.failed ? `  ${rows(s.failed)} failed (5xx), named in ${this.o.rejects}: run again to retry them` : '',
      ].join(''),
    );
    return s.exit_code;
  }
}

const rows = (n: number) => (n === 1 ? '1 row' : `${n} rows`);
