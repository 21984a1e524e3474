// Catalog search over two FlexSearch indexes built at build time: one of operations (name, capability,
// provider, summary, the provider's own terms) and one of capability vocabularies (the job's words,
// what the caller has, what they get). docs/search.md explains the ranking:
// each query term counts once, weighted by how rare it is among capabilities, at the best place it
// matches for a row (its capability's vocabulary or the row's own words); the routed entry of a
// capability comes first when the query names that capability's job; ties: measured before
// unmeasured, then cheaper, then id. No node imports: the same index loads in the browser.
import FlexSearch from 'flexsearch';
import type { CapabilityDoc, SearchRow } from '../../build/types.ts';
import { searchEncoder, sentenceEncoder } from './encoder.ts';

const ROW_FIELDS = ['name', 'capability', 'provider_display', 'summary', 'terms'] as const;
type RowField = (typeof ROW_FIELDS)[number];
/** weight of a capability-vocabulary field when a query term matches it */
const CAP_FIELDS = { job: 1, gets: 0.8, says: 0.6, has: 0.4 } as const;
type CapField = keyof typeof CAP_FIELDS;
/** weight of a query term found among a row's own words; a provider's name weighs more than its capability's job */
const OWN_WORD = 0.8;
const PROVIDER_WORD = 1.5;
/** each pair of adjacent query words found together in a capability's vocabulary ('email from linkedin') */
const PAIR = 0.75;
/** a row whose summary matched gets this much on top, whatever the words */
const SUMMARY = 0.25;
/** the share of the query's weight a capability's vocabulary must hold for the query to name its job */
const NAMES_JOB = 0.5;
/** per field; FlexSearch ranks within a field, so the best rows come first */
const CANDIDATES = 50;
/** capabilities whose rows join the candidates, and rows of each */
const TOP_CAPABILITIES = 8;
const ROWS_PER_CAPABILITY = 40;

const rowOptions = () => ({
  encoder: searchEncoder,
  document: {
    id: 'i',
    index: ROW_FIELDS.map((field) => (field === 'provider_display' ? { field, tokenize: 'strict' } : { field, tokenize: 'forward' })),
  },
});
const capOptions = () => ({ encoder: searchEncoder, document: { id: 'i', index: Object.keys(CAP_FIELDS).map((field) => ({ field, tokenize: 'forward' })) } });

interface DocIndex<F extends string> {
  add(doc: Record<string, unknown>): void;
  search(q: string, opts: { limit: number; suggest?: boolean }): Array<{ field: F; result: number[] }>;
  export(handler: (key: string, data: string) => void): Promise<void> | void;
  import(key: string, data: string): void;
}
const newIndex = <F extends string>(options: object): DocIndex<F> =>
  new (FlexSearch as unknown as { Document: new (o: object) => DocIndex<F> }).Document(options);

const rowDoc = (r: SearchRow, i: number) => ({ i, name: r.name, capability: r.capability.replaceAll('.', ' '), provider_display: `${r.provider_display} ${r.provider}`, summary: r.summary, terms: (r.terms ?? []).join(' ') });
const capDoc = (c: CapabilityDoc, i: number) => {
  const v = c.vocabulary;
  return {
    i,
    job: [c.capability.replaceAll('.', ' '), ...v.terms].join(' '),
    says: [c.description, ...v.phrasings].join(' '),
    gets: Object.entries(v.gets).flatMap(([field, words]) => [field.replaceAll('_', ' '), ...words]).join(' '),
    has: Object.entries(v.has).flatMap(([field, words]) => [field.replaceAll('_', ' '), ...words]).join(' '),
  };
};

async function dump(index: DocIndex<string>): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  await index.export((key, data) => { if (data !== undefined) out[key] = data; });
  return Object.fromEntries(Object.entries(out).sort(([a], [b]) => a.localeCompare(b)));
}

export interface SearchIndexDump {
  rows: Record<string, string>;
  capabilities: Record<string, string>;
}

/** Build side: index every row and every capability's vocabulary, return both exported as JSON-able objects. */
export async function exportSearchIndex(rows: SearchRow[], capabilities: CapabilityDoc[]): Promise<SearchIndexDump> {
  const rowIndex = newIndex<RowField>(rowOptions());
  rows.forEach((r, i) => rowIndex.add(rowDoc(r, i)));
  const capIndex = newIndex<CapField>(capOptions());
  capabilities.forEach((c, i) => capIndex.add(capDoc(c, i)));
  return { rows: await dump(rowIndex), capabilities: await dump(capIndex) };
}

export interface SearchHit {
  row: SearchRow;
  score: number;
}

const wordsOf = (text: string) => new Set(searchEncoder.encode(text));
/** adjacent word pairs, little words kept: they carry the direction ('email from' is not 'from email') */
const pairsOf = (text: string) => {
  const w = sentenceEncoder.encode(text);
  return w.slice(1).map((b, k) => `${w[k]} ${b}`);
};
const vocabularyPairs = (c: CapabilityDoc) => new Set([...c.vocabulary.terms, ...c.vocabulary.phrasings, ...Object.values(c.vocabulary.has).flat(), ...Object.values(c.vocabulary.gets).flat()].flatMap(pairsOf));

export class SearchEngine {
  /** the operations index (bench/catalog.ts compares against a raw loop over it) */
  private index = newIndex<RowField>(rowOptions());
  private capIndex = newIndex<CapField>(capOptions());
  private own: Array<Set<string>>;
  private providerWords: Array<Set<string>>;
  private usd: Float64Array;
  private capOf: Int32Array;
  private routedOf: Int32Array;
  /** per capability doc: its rows, routed entry first, then cheaper first */
  private rowsOf: number[][];
  private pairs: Array<Set<string>>;

  constructor(readonly rows: SearchRow[], dump: SearchIndexDump, readonly capabilities: CapabilityDoc[]) {
    for (const [k, v] of Object.entries(dump.rows)) this.index.import(k, v);
    for (const [k, v] of Object.entries(dump.capabilities)) this.capIndex.import(k, v);
    this.usd = Float64Array.from(rows, (r) => r.usd ?? Number.POSITIVE_INFINITY);
    this.own = rows.map((r) => wordsOf(`${r.name} ${r.capability.replaceAll('.', ' ')} ${(r.terms ?? []).join(' ')}`));
    this.providerWords = rows.map((r) => wordsOf(`${r.provider_display} ${r.provider}`));
    const capIds = new Map(capabilities.map((c, i) => [c.capability, i]));
    this.capOf = Int32Array.from(rows, (r) => capIds.get(r.capability) ?? -1);
    this.routedOf = new Int32Array(capabilities.length).fill(-1);
    this.rowsOf = capabilities.map(() => []);
    this.pairs = capabilities.map(vocabularyPairs);
    rows.forEach((r, i) => {
      const c = this.capOf[i];
      if (c < 0) return;
      this.rowsOf[c].push(i);
      if (r.kind === 'routed') this.routedOf[c] = i;
    });
    for (const list of this.rowsOf) list.sort((a, b) => Number(rows[b].kind === 'routed') - Number(rows[a].kind === 'routed') || this.usd[a] - this.usd[b] || a - b);
  }

  /** `measured(id)` says whether an endpoint has observations (live state). */
  search(q: string, limit: number, measured: (id: string) => boolean): { hits: SearchHit[]; total: number } {
    const terms = [...new Set(searchEncoder.encode(q))];
    if (!terms.length) return { hits: [], total: 0 };
    const nCaps = this.capabilities.length;
    // Each term: which capability vocabularies hold it (and where), and how rare it is among them.
    const capWeight = new Float64Array(nCaps * terms.length);
    const idf = new Float64Array(terms.length);
    const heldByAJob = new Uint8Array(terms.length);
    terms.forEach((t, k) => {
      const holders = new Set<number>();
      for (const { field, result } of this.capIndex.search(t, { limit: nCaps || 1 })) {
        for (const c of result) {
          holders.add(c);
          const at = c * terms.length + k;
          capWeight[at] = Math.max(capWeight[at], CAP_FIELDS[field]);
        }
      }
      idf[k] = 1 + Math.log(1 + nCaps / (1 + holders.size));
      heldByAJob[k] = holders.size > 0 ? 1 : 0;
    });
    const queryWeight = idf.reduce((a, b) => a + b, 0);
    const capScore = new Float64Array(nCaps);
    for (let c = 0; c < nCaps; c++) for (let k = 0; k < terms.length; k++) capScore[c] += idf[k] * capWeight[c * terms.length + k];
    const pairBonus = new Float64Array(nCaps);
    const queryPairs = pairsOf(q);
    if (queryPairs.length) {
      for (let c = 0; c < nCaps; c++) if (capScore[c] > 0) for (const p of queryPairs) if (this.pairs[c].has(p)) pairBonus[c] += PAIR;
    }

    // Candidates: what the operations index finds for the words, and the rows of the capabilities whose jobs match best.
    const summaryHit = new Set<number>();
    const seen = new Set<number>();
    for (const { field, result } of this.index.search(terms.join(' '), { limit: CANDIDATES, suggest: true })) {
      for (const i of result) { seen.add(i); if (field === 'summary') summaryHit.add(i); }
    }
    const topCaps = [...capScore.keys()].filter((c) => capScore[c] > 0).sort((a, b) => capScore[b] - capScore[a] || a - b).slice(0, TOP_CAPABILITIES);
    for (const c of topCaps) for (const i of this.rowsOf[c].slice(0, ROWS_PER_CAPABILITY)) seen.add(i);

    const last = terms.length - 1;
    const ids = [...seen];
    const score = new Float64Array(ids.length);
    const namesProvider = new Uint8Array(ids.length);
    ids.forEach((i, n) => {
      const own = this.own[i];
      const providers = this.providerWords[i];
      const c = this.capOf[i];
      let s = (summaryHit.has(i) ? SUMMARY : 0) + (c >= 0 ? pairBonus[c] : 0);
      terms.forEach((t, k) => {
        let w = c >= 0 ? capWeight[c * terms.length + k] : 0;
        // A provider is named only by a word no job uses: 'Bouncer' does not name a provider in 'will it bounce'.
        if (!heldByAJob[k] && providers.has(t)) { w = Math.max(w, PROVIDER_WORD); namesProvider[n] = 1; }
        else if (own.has(t) || (k === last && startsWithAny(own, t))) w = Math.max(w, OWN_WORD);
        s += idf[k] * w;
      });
      score[n] = s;
    });
    // The routed entry of a capability whose job the query names ranks with the best of its children
    // that no provider name lifted, and before them.
    const bestChild = new Map<number, number>();
    ids.forEach((i, n) => {
      const c = this.capOf[i];
      if (c >= 0 && !namesProvider[n]) bestChild.set(c, Math.max(bestChild.get(c) ?? 0, score[n]));
    });
    ids.forEach((i, n) => {
      const c = this.capOf[i];
      if (c >= 0 && this.routedOf[c] === i && capScore[c] >= NAMES_JOB * queryWeight) score[n] = Math.max(score[n], bestChild.get(c) ?? 0) + 0.01;
    });
    for (let n = 0; n < score.length; n++) score[n] = Math.round(score[n] * 1000) / 1000;

    const isMeasured = Uint8Array.from(ids, (i) => (measured(this.rows[i].endpoint_id) ? 1 : 0));
    const order = Array.from({ length: ids.length }, (_, n) => n);
    order.sort((a, b) => score[b] - score[a] || isMeasured[b] - isMeasured[a] || this.usd[ids[a]] - this.usd[ids[b]] || ids[a] - ids[b]);
    const hits: SearchHit[] = [];
    for (let k = 0; k < Math.min(limit, order.length); k++) hits.push({ row: this.rows[ids[order[k]]], score: score[order[k]] });
    return { hits, total: ids.length };
  }
}

function startsWithAny(words: Set<string>, prefix: string): boolean {
  for (const w of words) if (w.startsWith(prefix)) return true;
  return false;
}
