// How the dashboard writes amounts: list prices keep their significant digits, balances keep cents,
// a reported charge names both its figures.
import { describe, expect, it } from 'vitest';
import { micro, ms, pct, usd } from '../../web/lib/format.ts';
import { reportedWords } from '../../language/ledger-words.ts';

describe('dashboard number formats', () => {
  it('list prices: every micro-dollar they carry, none rounded away, at least cents, as the CLI writes money', () => {
    expect([usd(0.0012), usd(0.005), usd(0.0245), usd(0.5), usd(12), usd(0), usd(null)]).toEqual([
      '$0.0012',
      '$0.005',
      '$0.0245',
      '$0.50',
      '$12.00',
      'free',
      '—',
    ]);
    // Hunter's price and a sub-cent one as the API and the CLI write them, not $0.0123 and $0.0012
    expect([usd(0.01225), usd(0.00123), usd(1.234567)]).toEqual(['$0.01225', '$0.00123', '$1.234567']);
  });

  it('micro-USD amounts keep at least cents and every micro-dollar there is', () => {
    expect([micro(12_500_000), micro(1_234), micro(1_000), micro(10_000), micro(0)]).toEqual(['$12.50', '$0.001234', '$0.001', '$0.01', '$0.00']);
  });

  it('shares and latencies', () => {
    expect([pct(0.953), pct(null), ms(240.4), ms(1520)]).toEqual(['95%', '—', '240 ms', '1.5 s']);
  });

  it('a reported charge in words, as the account page and `svc me ledger` write it: the figure as stated, its money, the list price', () => {
    expect(reportedWords({ list_micro: 10_000, reported_micro: 30_000, reported_value: 3, reported_unit: 'credits' }, micro)).toBe(
      'reported 3 credits = $0.03; list $0.01',
    );
    // one unit reads singular; a USD figure is money already
    expect(reportedWords({ list_micro: 1_000, reported_micro: 1_000, reported_value: 1, reported_unit: 'person credits' }, micro)).toBe(
      'reported 1 person credit = $0.001; list $0.001',
    );
    expect(reportedWords({ list_micro: 2_000, reported_micro: 2_000, reported_value: 1, reported_unit: 'searches' }, micro)).toBe(
      'reported 1 search = $0.002; list $0.002',
    );
    expect(reportedWords({ list_micro: 2_000, reported_micro: 15_500, reported_value: 0.0155, reported_unit: 'usd' }, micro)).toBe(
      'reported $0.0155; list $0.002',
    );
    // billed less than reported: the call's ceiling (or what the balance held) capped it, and the words say so
    expect(
      reportedWords({ amount_micro: -1_000_000, list_micro: 280_000, reported_micro: 1_120_000, reported_value: 4, reported_unit: 'person credits' }, micro),
    ).toBe('reported 4 person credits = $1.12; list $0.28; capped at $1.00');
    expect(reportedWords({ amount_micro: -30_000, list_micro: 10_000, reported_micro: 30_000, reported_value: 3, reported_unit: 'credits' }, micro)).toBe(
      'reported 3 credits = $0.03; list $0.01',
    );
    // a row without both figures says nothing
    expect(reportedWords({}, micro)).toBeNull();
    expect(reportedWords({ list_micro: 10_000 }, micro)).toBeNull();
  });
});
