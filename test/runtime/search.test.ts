// Search ranking: more query words matched first, then field weights; ties: measured before
// unmeasured, then cheaper, then id.
import { describe, expect, it } from 'vitest';
import type { SearchRow } from '../../language/types.ts';
import { exportSearchIndex, SearchEngine } from '../../language/search.ts';

const row = (endpoint_id: string, name: string, usd: number | null, extra: Partial<SearchRow> = {}): SearchRow => ({
  endpoint_id, name, summary: 'Checks an address.', provider: endpoint_id.split('.')[0], provider_display: endpoint_id.split('.')[0],
  capability: 'people.email.verify', kind: 'data', usd, ...extra,
});

async function engine(rows: SearchRow[]): Promise<SearchEngine> {
  // Rows are indexed in id order, as the build emits them.
  const sorted = [...rows].sort((a, b) => a.endpoint_id.localeCompare(b.endpoint_id));
  return new SearchEngine(sorted, await exportSearchIndex(sorted));
}

describe('catalog search ranking', () => {
  it('puts rows matching more of the query words first', async () => {
    const e = await engine([
      row('a.one', 'Email verifier', 0.01),
      row('b.two', 'Phone lookup', 0.001, { capability: 'people.phone.find', summary: 'Finds a phone.' }),
      row('c.three', 'Email finder', 0.001, { capability: 'people.email.find', summary: 'Finds an address.' }),
    ]);
    const { hits } = e.search('email verify', 10, () => false);
    expect(hits[0].row.endpoint_id).toBe('a.one');
    expect(hits[0].score).toBeGreaterThan(hits[1].score);
    expect(hits.map((h) => h.row.endpoint_id)).not.toContain('b.two');
  });

  it('breaks ties: measured before unmeasured, then cheaper first, then id', async () => {
    const e = await engine([
      row('d.cheap', 'Verify email', 0.001),
      row('e.dear', 'Verify email', 0.02),
      row('f.measured', 'Verify email', 0.05),
      row('g.free', 'Verify email', 0),
      row('h.unpriced', 'Verify email', null),
      row('i.cheap', 'Verify email', 0.001),
    ]);
    const { hits } = e.search('verify email', 10, (id) => id === 'f.measured');
    expect(new Set(hits.map((h) => h.score)).size).toBe(1);
    expect(hits.map((h) => h.row.endpoint_id)).toEqual(['f.measured', 'g.free', 'd.cheap', 'i.cheap', 'e.dear', 'h.unpriced']);
  });

  it('matches word prefixes, answers nothing for no words, and counts all matches in total', async () => {
    const e = await engine([row('a.one', 'Email verifier', 0.01), row('b.two', 'Email validator', 0.02, { capability: 'people.email.check' })]);
    expect(e.search('verif', 10, () => false).hits.map((h) => h.row.endpoint_id)).toEqual(['a.one']);
    expect(e.search('  ', 10, () => false)).toEqual({ hits: [], total: 0 });
    const limited = e.search('email', 1, () => false);
    expect(limited.hits).toHaveLength(1);
    expect(limited.total).toBe(2);
  });
});
