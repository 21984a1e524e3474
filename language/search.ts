// Catalog search: a FlexSearch Document index built at build time and imported at start.
// Score = query words found in name, capability or provider x 10 + weights of the fields FlexSearch
// matched (name 3, capability 3, provider 2, summary 1); ties break on
// measured before unmeasured, then cheaper first, then id.
import FlexSearch from 'flexsearch';
import type { SearchRow } from './types.ts';

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
  private weight: Float64Array;
  private usd: Float64Array;

  constructor(readonly rows: SearchRow[], dump: Record<string, string>) {
    for (const [k, v] of Object.entries(dump)) this.index.import(k, v);
    this.weight = new Float64Array(rows.length);
    this.usd = Float64Array.from(rows, (r) => r.usd ?? Number.POSITIVE_INFINITY);
    // Words counted for the score: the short fields; the summary still counts through its field weight.
    this.haystacks = rows.map((r) => `${r.name} ${r.capability} ${r.provider_display} ${r.provider}`.toLowerCase());
  }

  /** `measured(id)` says whether an endpoint has observations (live state). */
  search(q: string, limit: number, measured: (id: string) => boolean): { hits: SearchHit[]; total: number } {
    const tokens = tokenize(q);
    if (!tokens.length) return { hits: [], total: 0 };
    // Field weights summed per candidate in a reusable typed array; `seen` lists who was touched.
    const weight = this.weight;
    const seen: number[] = [];
    for (const { field, result } of this.index.search(tokens.join(' '), { limit: CANDIDATES, suggest: true })) {
      const w = FIELDS[field];
      for (const i of result) {
        if (weight[i] === 0) seen.push(i);
        weight[i] += w;
      }
    }
    const n = seen.length;
    const score = new Float64Array(n);
    const key = new Float64Array(n);
    for (let k = 0; k < n; k++) {
      const i = seen[k];
      let found = 1; // every candidate matched at least one word; count the others only when there are others
      if (tokens.length > 1) {
        found = 0;
        const hay = this.haystacks[i];
        for (const t of tokens) if (hay.includes(t)) found++;
      }
      score[k] = found * 10 + weight[i];
      weight[i] = 0;
      key[k] = score[k] * 2 + (measured(this.rows[i].endpoint_id) ? 1 : 0);
    }
    const order = Array.from({ length: n }, (_, k) => k);
    order.sort((a, b) => key[b] - key[a] || this.usd[seen[a]] - this.usd[seen[b]] || seen[a] - seen[b]);
    const hits: SearchHit[] = [];
    for (let k = 0; k < Math.min(limit, n); k++) hits.push({ row: this.rows[seen[order[k]]], score: score[order[k]] });
    return { hits, total: n };
  }
}
