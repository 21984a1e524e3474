// Output for people (aligned columns, key/value lines) and for scripts (--json: one JSON document).
import { formatUsd } from '../state/money.ts';

export const json = { type: 'boolean', default: false, description: 'print JSON instead of a table' } as const;

export const out = (text: string): void => { process.stdout.write(text.endsWith('\n') ? text : `${text}\n`); };
export const note = (text: string): void => { process.stderr.write(`${text}\n`); };
export const printJson = (data: unknown): void => out(JSON.stringify(data));

/** Columns padded to their widest cell; the last column runs free. */
export function table(head: string[], rows: Array<Array<string | number | null | undefined>>): string {
  const cells = [head, ...rows.map((r) => r.map((c) => (c === null || c === undefined ? '-' : String(c))))];
  const widths = head.map((_, i) => Math.max(...cells.map((r) => (r[i] ?? '').length)));
  return cells.map((r) => r.map((c, i) => (i === r.length - 1 ? c : c.padEnd(widths[i]))).join('  ').trimEnd()).join('\n');
}

/** `key  value` lines; objects and lists as compact JSON */
export function pairs(record: Record<string, unknown>): string {
  return table(['', ''], Object.entries(record).map(([k, v]) => [k, typeof v === 'object' && v !== null ? JSON.stringify(v) : String(v)])).split('\n').slice(1).join('\n');
}

export const usd = (micro: number | null | undefined): string => (micro === null || micro === undefined ? '-' : `${formatUsd(micro)} USD`);
export const percent = (rate: number | null | undefined): string => (rate === null || rate === undefined ? '-' : `${Math.round(rate * 100)}%`);
