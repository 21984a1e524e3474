// A batch body: NDJSON, one subject per line, each an object with an optional `id` (default: its
// line number). Read whole and checked before any row runs, so bad input changes nothing.
import { fail } from '../util/fail.ts';

/** Rows past this answer 413: a longer list is several batches (docs/batch.md). */
export const MAX_BATCH_ROWS = 10_000;
/** bytes of a batch body: the row limit times a generous subject */
export const MAX_BATCH_BYTES = 16 * 1024 * 1024;

export interface BatchRow {
  id: string | number;
  subject: Record<string, unknown>;
}

export function parseBatch(text: string): BatchRow[] {
  const rows: BatchRow[] = [];
  /** line of each id given so far, by its text: rows answer out of order, so the id is how a caller matches them */
  const lineOf = new Map<string, number>();
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i].trim();
    if (!line) continue;
    if (rows.length === MAX_BATCH_ROWS) fail(413, `A batch holds at most ${MAX_BATCH_ROWS} rows; split the list and send the rest as another batch.`);
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      fail(400, `Line ${i + 1} of the batch is not valid JSON; send one JSON object per line.`);
    }
    if (!value || typeof value !== 'object' || Array.isArray(value))
      fail(400, `Line ${i + 1} of the batch is not a JSON object; send one subject object per line.`);
    const { id, ...subject } = value as Record<string, unknown>;
    if (id !== undefined && typeof id !== 'string' && typeof id !== 'number') fail(400, `Line ${i + 1}: id must be a string or a number.`);
    const rowId = (id as string | number | undefined) ?? i + 1;
    const earlier = lineOf.get(String(rowId));
    if (earlier !== undefined)
      fail(
        400,
        `Line ${i + 1}: id ${JSON.stringify(rowId)} is already the id of line ${earlier}; give each row its own id, since rows are answered as they finish, not in order.`,
      );
    lineOf.set(String(rowId), i + 1);
    rows.push({ id: rowId, subject });
  }
  if (!rows.length) fail(400, 'The batch is empty; send one JSON subject per line.');
  return rows;
}
