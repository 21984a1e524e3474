// How numbers read on the pages: dollars to the micro-dollar they carry (the one rule the CLI prints
// money by, language/money-words.ts: $0.10, $0.01225, $12.50), shares, milliseconds.
import { usdText, usdTextOf } from '../../language/money-words.ts';

/** a price in USD; 'free' for none */
export const usd = (v: number | null | undefined): string => (v === null || v === undefined ? '—' : v === 0 ? 'free' : usdTextOf(v));

/** an amount in micro-USD (a balance, a charge) */
export const micro = (m: number): string => usdText(m);

export const pct = (v: number | null | undefined): string => (v === null || v === undefined ? '—' : `${Math.round(v * 100)}%`);

export const ms = (v: number | null | undefined): string =>
  v === null || v === undefined ? '—' : v >= 1000 ? `${(v / 1000).toFixed(1)} s` : `${Math.round(v)} ms`;
