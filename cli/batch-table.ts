// The tables `svc batch` reads and writes: CSV (with a header row) or NDJSON, told apart by the
// file's extension (.ndjson, .jsonl: NDJSON; anything else: CSV).
import { existsSync, readFileSync, appendFileSync, renameSync, writeFileSync } from 'node:fs';
import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import { CliFailure, EXIT } from './fail.ts';

export type Record_ = Record<string, unknown>;

export const isNdjson = (path: string) => /\.(nd)?jsonl?$|\.ndjson$/i.test(path);

/** A table as its rows, and its columns (a CSV's header; for NDJSON, every key in the order first seen). */
export function readTable(path: string): { rows: Record_[]; columns: string[] } {
  if (!existsSync(path)) throw new CliFailure(`No file ${path}.`, EXIT.usage);
  const text = readFileSync(path, 'utf8');
  if (isNdjson(path)) {
    const rows = text
      .split('\n')
      .filter((l) => l.trim())
      .map((l, i) => {
        let row: unknown;
        try {
          row = JSON.parse(l);
        } catch {
          row = null;
        }
        if (!row || typeof row !== 'object' || Array.isArray(row)) throw new CliFailure(`${path}:${i + 1} is not a JSON object.`, EXIT.usage);
        return row as Record_;
      });
    return { rows, columns: [...new Set(rows.flatMap((r) => Object.keys(r)))] };
  }
  try {
    let header: string[] = [];
    const rows = parse(text, { columns: (h: string[]) => (header = h), skip_empty_lines: true, bom: true }) as Record_[];
    return { rows, columns: header };
  } catch (e) {
    throw new CliFailure(`${path} is not a CSV file with a header row: ${(e as Error).message}`, EXIT.usage);
  }
}

const cell = (v: unknown) => (v !== null && typeof v === 'object' ? JSON.stringify(v) : (v ?? ''));

function serialise(path: string, columns: string[] | null, rows: Record_[], header: boolean): string {
  if (isNdjson(path)) return rows.map((r) => `${JSON.stringify(r)}\n`).join('');
  const cols = columns ?? [];
  // nested values are JSON in their cell; csv-stringify writes true as 1 and false as nothing, which
  // would read back as no answer
  return stringify([...(header ? [cols] : []), ...rows.map((r) => cols.map((c) => cell(r[c])))], { cast: { boolean: String } });
}

/** The whole table written at once: to a file beside it, then renamed over it, so it is never half written. */
export function writeTable(path: string, columns: string[], rows: Record_[]): void {
  const temp = `${path}.${process.pid}.tmp`;
  writeFileSync(temp, serialise(path, columns, rows, true));
  renameSync(temp, path);
}

/** Rows appended as they come, so an interrupted run keeps what it paid for. */
export class TableWriter {
  /** CSV: `columns` fixes the header (written first unless the file has it), else the first row written does */
  constructor(
    private path: string,
    private columns: string[] | null,
    private headed = columns !== null,
  ) {}

  write(row: Record_): void {
    this.columns ??= Object.keys(row);
    appendFileSync(this.path, serialise(this.path, this.columns, [row], !this.headed));
    this.headed = true;
  }
}
