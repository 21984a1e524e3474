// Money is integer micro-USD everywhere (1 USD = 1_000_000). USD text is parsed digit by digit, never
// through a float, so "0.1" is exactly 100000.
export const MICRO_PER_USD = 1_000_000;
/** the largest amount accepted in one operation: 1e9 USD keeps every sum a safe integer */
export const MAX_USD = 1_000_000_000;

const USD_RE = /^(\d{1,10})(?:\.(\d{1,6}))?$/;

/** "12.34" → 12340000; a number is read through its shortest decimal text. null when not a USD amount ≥ 0 with ≤ 6 decimals. */
export function parseUsd(value: string | number): number | null {
  const text = typeof value === 'number' ? (Number.isFinite(value) ? numberText(value) : '') : value.trim();
  const m = USD_RE.exec(text);
  if (!m) return null;
  const micro = Number(m[1]) * MICRO_PER_USD + Number((m[2] ?? '').padEnd(6, '0'));
  return micro <= MAX_USD * MICRO_PER_USD ? micro : null;
}

function numberText(n: number): string {
  if (n < 0) return '';
  const s = String(n);
  // 1e-7 and similar: more than six decimals, rejected; 1e21: too large, rejected.
  return /e/i.test(s) ? '' : s;
}

/** 12340000 → "12.34" */
export function formatUsd(micro: number): string {
  const sign = micro < 0 ? '-' : '';
  const abs = Math.abs(micro);
  const whole = Math.floor(abs / MICRO_PER_USD);
  const frac = String(abs % MICRO_PER_USD).padStart(6, '0').replace(/0+$/, '');
  return `${sign}${whole}${frac ? `.${frac.length < 2 ? frac.padEnd(2, '0') : frac}` : ''}`;
}
