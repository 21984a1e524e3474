// Output for people (aligned columns, key/value lines) and for scripts (--json: one JSON document).
import { usdText, usdTextOf } from '../language/money-words.ts';

export const json = { type: 'boolean', default: false, description: 'print JSON instead of a table' } as const;

export { note, out, printJson } from './terminal.ts';

/** Columns padded to their widest cell; the last column runs free. */
export function table(head: string[], rows: Array<Array<string | number | null | undefined>>): string {
  const cells = [head, ...rows.map((r) => r.map((c) => (c === null || c === undefined ? '-' : String(c))))];
  const widths = head.map((_, i) => Math.max(...cells.map((r) => (r[i] ?? '').length)));
  return cells
    .map((r) =>
      r
        .map((c, i) => (i === r.length - 1 ? c : c.padEnd(widths[i])))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

/** a value in one cell: objects and lists as compact JSON */
const cell = (v: unknown): string => (typeof v === 'object' && v !== null ? JSON.stringify(v) : String(v));

/** `key  value` lines; objects and lists as compact JSON */
export function pairs(record: Record<string, unknown>): string {
  return table(
    ['', ''],
    Object.entries(record).map(([k, v]) => [k, cell(v)]),
  )
    .split('\n')
    .slice(1)
    .join('\n');
}

const isRows = (v: unknown): v is Array<Record<string, unknown>> =>
  Array.isArray(v) && v.length > 0 && v.every((r) => typeof r === 'object' && r !== null && !Array.isArray(r));

/** An answer's output for people: its plain fields as `key  value` lines, each list of records as a table under its name. */
export function record(output: unknown): string {
  if (typeof output !== 'object' || output === null || Array.isArray(output)) return JSON.stringify(output, null, 2);
  const entries = Object.entries(output);
  const plain = entries.filter(([, v]) => !isRows(v));
  const parts = plain.length ? [pairs(Object.fromEntries(plain))] : [];
  for (const [name, rows] of entries.filter((e): e is [string, Array<Record<string, unknown>>] => isRows(e[1]))) {
    const columns = [...new Set(rows.flatMap((r) => Object.keys(r)))];
    parts.push(
      `${parts.length ? '\n' : ''}${name}:\n${table(
        columns.map((c) => c.toUpperCase()),
        rows.map((r) => columns.map((c) => (c in r ? cell(r[c]) : null))),
      )}`,
    );
  }
  return parts.join('\n');
}

/**
 * Every USD amount the CLI prints, from micro-USD: a dollar sign, at least two decimals, more only
 * where the amount needs them ($0.10, $0.0049, $12.50, $1.00, -$0.02); `-` for no amount
 * (language/money-words.ts).
 */
export const usd = usdText;
/** a USD number as an answer gives it (`price_usd`, `cost.usd`), printed as its micro-USD amount is */
export const usdOf = usdTextOf;
export const percent = (rate: number | null | undefined): string => (rate === null || rate === undefined ? '-' : `${Math.round(rate * 100)}%`);
