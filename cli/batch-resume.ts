// Which input rows already have their answer in the output, so running the same command again
// never calls (or pays for) them twice. An output line answers the input row its `row` column names
// when that row still sends the same subject; a line whose row moved (rows inserted or removed above
// it) answers the first unanswered row sending its subject. Only input columns make a subject, so
// output fields that share a name with a capability's field (first_name, last_name) never count.
import { existsSync } from 'node:fs';
import type { Columns } from './batch-columns.ts';
import { isNdjson, readTable, writeTable, type Record_ } from './batch-table.ts';

export interface Resumed {
  /** input row numbers (from 1) whose answer is in the output */
  answered: Set<number>;
  /** the output's CSV header, which new lines follow (null: no output yet, or NDJSON) */
  header: string[] | null;
  /** lines of an output written before svc wrote `row` (the last release): numbered and rewritten */
  upgraded: number;
}

export function resumeFrom(out: string, input: Record_[], columns: Columns): Resumed {
  if (!existsSync(out)) return { answered: new Set(), header: null, upgraded: 0 };
  const { rows: lines, columns: header } = readTable(out);
  const rowColumn = columns.svc('row');
  const inputKeys = input.map((r) => columns.key(r));
  const lineKeys = lines.map((l) => columns.key(l));
  const answered = new Set<number>();
  const rowOfLine: Array<number | undefined> = [];

  lines.forEach((line, j) => {
    const r = Number(line[rowColumn]);
    if (Number.isInteger(r) && r >= 1 && r <= input.length && inputKeys[r - 1] === lineKeys[j]) {
      answered.add(r);
      rowOfLine[j] = r;
    }
  });
  const rowsOfKey = new Map<string, number[]>();
  inputKeys.forEach((k, i) => rowsOfKey.set(k, [...(rowsOfKey.get(k) ?? []), i + 1]));
  lines.forEach((_, j) => {
    if (rowOfLine[j] !== undefined) return;
    const r = rowsOfKey.get(lineKeys[j])?.find((n) => !answered.has(n));
    if (r === undefined) return;
    answered.add(r);
    rowOfLine[j] = r;
  });

  const legacy = lines.length > 0 && !header.includes(rowColumn);
  if (!legacy) return { answered, header: isNdjson(out) || !header.length ? null : header, upgraded: 0 };
  // An output of the last release has no `row` or `call_id`: each line gets the row it answers (a
  // second line for the same row, which that release paid twice, names that row too; a line no
  // input row sends any more, none), and call_id stays empty, as that release never wrote it.
  const callColumn = columns.svc('call_id');
  const upgraded = lines.map((line, j) => ({
    ...line,
    [rowColumn]: rowOfLine[j] ?? rowsOfKey.get(lineKeys[j])?.[0] ?? '',
    [callColumn]: line[callColumn] ?? '',
  }));
  const upgradedHeader = [...header, ...[rowColumn, callColumn].filter((c) => !header.includes(c))];
  writeTable(out, upgradedHeader, upgraded);
  return { answered, header: isNdjson(out) ? null : upgradedHeader, upgraded: lines.length };
}
