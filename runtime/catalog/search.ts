// Catalog search: a FlexSearch Document index built at build time and imported at start.
// Score = query tokens found in the row x 10 + weights of the fields that matched; ties break on
// measured before unmeasured, then cheaper first, then id.
import FlexSearch from 'flexsearch';
import type { SearchRow } from '../../build/types.ts';

const FIELDS = { name: 3, capability: 3, provider_display: 2, summary: 1 } as const;
type Field = keyof typeof FIELDS;
const OPTIONS = { tokenize: 'forward', document: { id: 'i', index: Object.keys(FIELDS) } } as const;

interface DocIndex {
  add(doc: Record<string, unknown>): void;
  search(q: string, opts: { limit: number; suggest: boolean }): Array<{ field: Field; result: number[] }>;
  export(handler: (key: string, data: string) => void): Promise<void> | void;
  import(key: string, data: string): void;
}

const newIndex = (): DocIndex => new (FlexSearch as unknown as { Document: new (o: typeof OPTIONS) => DocIndex }).Document(OPTIONS);

/** Build side: index every row, return the exported index as one JSON-able object. */
export async function exportSearchIndex(rows: SearchRow[]): Promise<Record<string, string>> {
  const index = newIndex();
  rows.forEach((r, i) => index.add({ i, name: r.name, capability: r.capability, provider_display: r.provider_display, summary: r.summary }));
  const dump: Record<string, string> = {};
  await index.export((key, data) => { if (data !== undefined) dump[key] = data; });
  return Object.fromEntries(Object.entries(dump).sort(([a], [b]) => a.localeCompare(b)));
}

export interface SearchHit {
  row: SearchRow;
  score: number;
}

const tokenize = (q: string) => q.toLowerCase().split(/[^a-z0-9]+/).filter(Boolean);
/** per field; FlexSearch ranks within a field, so the best rows come first */
const CANDIDATES = 50;

export class SearchEngine {
  private index = newIndex();
  private haystacks: string[];

  constructor(readonly rows: SearchRow[], dump: Record<string, string>) {
    for (const [k, v] of Object.entries(dump)) this.index.import(k, v);
    this.haystacks = rows.map((r) => `${r.name} ${r.capability} ${r.provider_display} ${r.provider} ${r.summary}`.toLowerCase());
  }

  /** `measured(id)` says whether an endpoint has observations (live state). */
  search(q: string, limit: number, measured: (id: string) => boolean): { hits: SearchHit[]; total: number } {
    const tokens = tokenize(q);
    if (!tokens.length) return { hits: [], total: 0 };
    const weight = new Map<number, number>();
    for (const { field, result } of this.index.search(tokens.join(' '), { limit: CANDIDATES, suggest: true })) {
      const w = FIELDS[field];
      for (const i of result) weight.set(i, (weight.get(i) ?? 0) + w);
    }
    // Sort keys are computed once per candidate, not in the comparator.
    const ranked: Array<{ i: number; score: number; key: number; usd: number }> = [];
    for (const [i, w] of weight) {
      const hay = this.haystacks[i];
      let found = 0;
      for (const t of tokens) if (hay.includes(t)) found++;
      const score = found * 10 + w;
      const row = this.rows[i];
      ranked.push({ i, score, key: score * 2 + (measured(row.endpoint_id) ? 1 : 0), usd: row.usd ?? Number.POSITIVE_INFINITY });
    }
    ranked.sort((a, b) => b.key - a.key || a.usd - b.usd || a.i - b.i);
    const hits: SearchHit[] = [];
    for (let k = 0; k < Math.min(limit, ranked.length); k++) hits.push({ row: this.rows[ranked[k].i], score: ranked[k].score });
    return { hits, total: ranked.length };
  }
}
