// How numbers read on the pages: dollars to the micro-dollar they carry, shares, milliseconds.
export const usd = (v: number | null | undefined): string =>
  v === null || v === undefined
    ? '—'
    : v === 0
      ? 'free'
      : // a price is whole micro-dollars: every one shown, none rounded away ($0.01225, not $0.0123), trailing zeros dropped
        `$${v.toFixed(6).replace(/0+$/, '').replace(/\.$/, '')}`;

export const micro = (m: number): string => `$${(m / 1_000_000).toFixed(6).replace(/0{1,4}$/, '')}`;

export const pct = (v: number | null | undefined): string => (v === null || v === undefined ? '—' : `${Math.round(v * 100)}%`);

export const ms = (v: number | null | undefined): string =>
  v === null || v === undefined ? '—' : v >= 1000 ? `${(v / 1000).toFixed(1)} s` : `${Math.round(v)} ms`;
