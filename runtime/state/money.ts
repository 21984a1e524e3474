// Money is integer micro-USD everywhere (1 USD = 1_000_000). USD text is parsed digit by digit, never
// through a float, so "0.1" is exactly 100000.
export const MICRO_PER_USD = 1_000_000;

const USD_RE = /^(\d+)(?:\.(\d{1,6}))?$/;

/**
 * "12.34" → 12340000; a JSON number is read through its shortest decimal text. null when it is not
 * a USD amount ≥ 0 with at most 6 decimals, or when its micro-USD value is not a safe integer (past
 * 9007199254.740991 USD), the most svc can add and compare exactly. Every amount from outside
 * (credits, ceilings, hub prices) is read through this.
 */
export function parseUsdToMicro(value: string | number): number | null {
  const text = typeof value === 'number' ? (Number.isFinite(value) ? numberText(value) : '') : value.trim();
  const m = USD_RE.exec(text);
  if (!m) return null;
  const whole = m[1].replace(/^0+(?=\d)/, '');
  // ten digits times a million already passes 2^53; more would lose digits before the check below
  if (whole.length > 10) return null;
  const micro = Number(whole) * MICRO_PER_USD + Number((m[2] ?? '').padEnd(6, '0'));
  return Number.isSafeInteger(micro) ? micro : null;
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
  const frac = String(abs % MICRO_PER_USD)
    .padStart(6, '0')
    .replace(/0+$/, '');
  return `${sign}${whole}${frac ? `.${frac.length < 2 ? frac.padEnd(2, '0') : frac}` : ''}`;
}

const DECIMAL_RE = /^(\d*)(?:\.(\d*))?(?:e([+-]?\d+))?$/i;

/**
 * A USD ceiling as text: any non-negative decimal a JSON or JavaScript reader takes ("2.50", ".5",
 * "1e9"), rounded DOWN to whole micro-USD (a ceiling can only get lower, so "0.0000001" is 0).
 * Worked out in exact integers, never through a float. null when it is not such a number or its
 * micro-USD value is not a safe integer.
 */
export function parseUsdCeiling(text: string): number | null {
  const m = DECIMAL_RE.exec(text.trim());
  if (!m || (!m[1] && !m[2])) return null;
  const digits = BigInt(`${m[1]}${m[2] ?? ''}` || '0');
  const shift = Number(m[3] ?? 0) - (m[2] ?? '').length + 6; // micro-USD = digits × 10^shift
  // the value's digit count decides the extremes without working out a huge power of ten
  const size = digits === 0n ? 0 : digits.toString().length + shift;
  if (size <= 0) return 0;
  if (size > 16) return null;
  const micro = shift >= 0 ? digits * 10n ** BigInt(shift) : digits / 10n ** BigInt(-shift);
  return micro <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(micro) : null;
}
