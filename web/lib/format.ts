// How numbers read on the pages: dollars to the tenth of a cent's precision they carry, shares, milliseconds.
export const usd = (v: number | null | undefined): string =>
  v === null || v === undefined
    ? '—'
    : v === 0
      ? 'free'
      : `$${
          v < 0.01
            ? v.toPrecision(2).replace(/0+$/, '')
            : v
                .toFixed(v < 1 ? 4 : 2)
                .replace(/0+$/, '')
                .replace(/\.$/, '')
        }`;

export const micro = (m: number): string => `$${(m / 1_000_000).toFixed(6).replace(/0{1,4}$/, '')}`;

export const pct = (v: number | null | undefined): string => (v === null || v === undefined ? '—' : `${Math.round(v * 100)}%`);

export const ms = (v: number | null | undefined): string =>
  v === null || v === undefined ? '—' : v >= 1000 ? `${(v / 1000).toFixed(1)} s` : `${Math.round(v)} ms`;
