// How the dashboard writes amounts: list prices keep their significant digits, balances keep cents.
import { describe, expect, it } from 'vitest';
import { micro, ms, pct, usd } from '../../web/lib/format.ts';

describe('dashboard number formats', () => {
  it('list prices: sub-cent prices keep two significant digits, others up to four decimals', () => {
    expect([usd(0.0012), usd(0.005), usd(0.0245), usd(0.5), usd(12), usd(0), usd(null)]).toEqual(['$0.0012', '$0.005', '$0.0245', '$0.5', '$12', 'free', '—']);
  });

  it('micro-USD amounts keep at least cents and every micro-dollar there is', () => {
    expect([micro(12_500_000), micro(1_234), micro(1_000), micro(10_000), micro(0)]).toEqual(['$12.50', '$0.001234', '$0.001', '$0.01', '$0.00']);
  });

  it('shares and latencies', () => {
    expect([pct(0.953), pct(null), ms(240.4), ms(1520)]).toEqual(['95%', '—', '240 ms', '1.5 s']);
  });
});
