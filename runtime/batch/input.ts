// A batch body: NDJSON, one subject per line, each an object with an optional `id` (default: its
// line number). Read whole and checked before any row runs, so bad input changes nothing.
import { fail } from '../errors.ts';

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
    if (!value || typeof value !== 'object' || Array.isArray(value)) fail(400, `Line ${i + 1} of the batch is not a JSON object; send one subject object per line.`);
    const { id, ...subject } = value as Record<string, unknown>;
    if (id !== undefined && typeof id !== 'string' && typeof id !== 'number') fail(400, `Line ${i + 1}: id must be a string or a number.`);
    rows.push({ id: (id as string | number | undefined) ?? i + 1, subject });
  }
  if (!rows.length) fail(400, 'The batch is empty; send one JSON subject per line.');
  return rows;
}
