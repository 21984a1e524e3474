// The tables `svc batch` reads and writes: CSV (with a header row) or NDJSON, told apart by the
// file's extension (.ndjson, .jsonl: NDJSON; anything else: CSV).
import { existsSync, readFileSync, appendFileSync } from 'node:fs';
import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import { CliFailure } from './fail.ts';

export type Record_ = Record<string, unknown>;

const isNdjson = (path: string) => /\.(nd)?jsonl?$|\.ndjson$/i.test(path);

export function readTable(path: string): Record_[] {
  if (!existsSync(path)) throw new CliFailure(`No file ${path}.`);
  const text = readFileSync(path, 'utf8');
  if (isNdjson(path)) {
    return text.split('\n').filter((l) => l.trim()).map((l, i) => {
      try {
        return JSON.parse(l) as Record_;
      } catch {
        throw new CliFailure(`${path}:${i + 1} is not a JSON object.`);
      }
    });
  }
  try {
    return parse(text, { columns: true, skip_empty_lines: true, bom: true }) as Record_[];
  } catch (e) {
    throw new CliFailure(`${path} is not a CSV file with a header row: ${(e as Error).message}`);
  }
}

/** Rows appended to the output as they come, so an interrupted run keeps what it paid for. */
export class TableWriter {
  private columns: string[] | null;

  constructor(private path: string, existing: Record_[]) {
    this.columns = existing.length && !isNdjson(path) ? Object.keys(existing[0]) : null;
  }

  write(row: Record_): void {
    if (isNdjson(this.path)) {
      appendFileSync(this.path, `${JSON.stringify(row)}\n`);
      return;
    }
    // CSV: the first row written fixes the header; nested values are JSON in their cell
    const fresh = this.columns === null;
    this.columns ??= Object.keys(row);
    const cells = this.columns.map((c) => (row[c] !== null && typeof row[c] === 'object' ? JSON.stringify(row[c]) : row[c] ?? ''));
    // csv-stringify writes true as 1 and false as nothing, which would read as no answer
    appendFileSync(this.path, stringify(fresh ? [this.columns, cells] : [cells], { cast: { boolean: String } }));
  }
}
