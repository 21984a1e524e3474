// Numbers that arrive as text (query parameters, headers) are read here and nowhere else: decimal
// digits only. JavaScript's own readers also take `0x10`, `1e2`, ` 5` and `Infinity`, which no
// caller of a paid API means as a count or a deadline.

/** an optional minus sign, then digits */
export const DECIMAL_INTEGER_RE = /^-?\d+$/;
/** an optional minus sign, digits, and an optional fraction of digits */
export const DECIMAL_NUMBER_RE = /^-?\d+(?:\.\d+)?$/;

/** "25" → 25; null for anything but decimal digits, or past the integers JavaScript holds exactly */
export function parseWholeNumber(text: string): number | null {
  if (!/^\d+$/.test(text)) return null;
  const n = Number(text);
  return Number.isSafeInteger(n) ? n : null;
}

/** Whether a query text may be coerced to a declared JSON Schema `type` (other types: always). */
export function decimalFor(type: unknown, text: string): boolean {
  if (type === 'integer') return DECIMAL_INTEGER_RE.test(text);
  if (type === 'number') return DECIMAL_NUMBER_RE.test(text);
  return true;
}
