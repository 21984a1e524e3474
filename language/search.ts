// Catalog search over two FlexSearch indexes built at build time: one of operations (name, capability,
// provider, summary, the provider's own terms) and one of capability vocabularies (the job's words,
// what the caller has, what they get). docs/search.md explains the ranking:
// each query term counts once, weighted by how rare it is among capabilities, at the best place it
// matches for a row (its capability's vocabulary or the row's own words); the routed entry of a
// capability comes first when the query names that capability's job; ties: measured before
// unmeasured, then cheaper, then id. No node imports: the same index loads in the browser.
import type { CapabilityDoc, SearchRow } from './types.ts';
import { searchEncoder } from './encoder.ts';
import { pairsOf, readQuery, type CompanyCues, type ReadQuery } from './read-query.ts';
import { byFirstLetter, closest, providerNames, startsWithAny } from './search-words.ts';
import { addRowWords, newRowWords, rowWords, stemsOf, type RowWords } from './row-words.ts';
import { CAP_FIELDS, capDoc, capOptions, newIndex, rowOptions, type CapField, type RowField, type SearchIndexDump } from './search-index.ts';

/** What else a row scores, per word of the query (times its rarity) or once. */
export const WEIGHT = {
  /** a query word among the row's own words (name, capability, terms) */
  ownWord: 0.8,
  /** a query word that is the provider's name: more than its capability's job */
  providerWord: 1.5,
  /** each pair of adjacent query words found together in the capability's vocabulary ('email from linkedin') */
  pair: 0.75,
  /** the row's summary matched, whatever the words */
  summary: 0.25,
  /** with the words matching alike: an operation of a routed capability first, account and utility operations last (no score below 0) */
  routedCapability: 0.05,
  data: 0.05,
} as const;
/** the share of the query's job words (those some vocabulary holds) a capability's vocabulary must hold to name its job */
const NAMES_JOB = 0.5;
/** rows per field that the operations index gives first */
const CANDIDATES = 20;
/**
 * The most rows a search request may ask (GET /catalog/search, the MCP tool): what the candidates
 * are sized by, rather than by the rows asked, so the first rows never change with the limit.
 */
const MOST_ASKED = 100;
/** capabilities whose routed entry and cheapest rows join the candidates (all the rows of one whose job the query names) */
const TOP_CAPABILITIES = 6;
const ROWS_PER_CAPABILITY = 4;
/** entries kept in each per-word memo before it starts over: bounds memory whatever callers send */
const MEMO = 20_000;
const NO_CAPABILITIES: ReadonlySet<string> = new Set();

/** A query as every ranked row sees it (SearchEngine.weigh). */
export interface Weighed {
  read: ReadQuery;
  terms: string[];
  /** per capability doc and term (capability * terms.length + term): the weight of the best field holding it */
  capWeight: Float64Array;
  /** per term: how rare it is among capability vocabularies */
  idf: Float64Array;
  /** per term: 1 when some vocabulary holds it */
  heldByAJob: Uint8Array;
  /** the weight of the job's words (those some vocabulary holds) */
  queryWeight: number;
  capScore: Float64Array;
  pairBonus: Float64Array;
  touched: Set<number>;
  /** the term that may be half typed (matches a prefix), or -1 */
  last: number;
}

export interface SearchHit {
  row: SearchRow;
  score: number;
  /** given back past the best rows because the search's `join` names its capability */
  joined?: true;
}

export const wordsOf = (text: string) => new Set(searchEncoder.encode(text));

/** rows whose words are computed between two pauses of SearchEngine.load */
const LOAD_SLICE = 250;
const vocabularyPairs = (c: CapabilityDoc) =>
  new Set(
    [...c.vocabulary.terms, ...c.vocabulary.phrasings, ...Object.values(c.vocabulary.has).flat(), ...Object.values(c.vocabulary.gets).flat()].flatMap(pairsOf),
  );

export class SearchEngine {
  /** the operations index (bench/catalog.ts compares against a raw loop over it) */
  private index = newIndex<RowField>(rowOptions());
  private capIndex = newIndex<CapField>(capOptions());
  private own: Array<Set<string>>;
  private providerWords: Array<Set<string>>;
  private usd: Float64Array;
  /** each row's place when ordered cheaper first, then by id, and the row at each place */
  private cheapRank: Int32Array;
  private byCheapRank: Int32Array;
  /** what a row scores for what it is, whatever the words: routed capability, utility */
  private base: Float64Array;
  /** per row, the query it was last seen in (1) and, for that query, whether its summary matched (2) */
  private mark: Uint32Array;
  private query = 0;
  private capOf: Int32Array;
  /** each capability's doc by its name */
  private capIds: Map<string, number>;
  private routedOf: Int32Array;
  /** per capability doc: its rows, routed entry first, then cheaper first */
  private rowsOf: number[][];
  private pairs: Array<Set<string>>;
  /** a provider's display name that looks like a domain reads as its key: 'Hunter.io' names Hunter, not 'this domain' */
  private providerNames: { pattern: RegExp; keys: Map<string, string> } | null;
  /** every word the catalog holds, providers' names too, for correcting misspelled query words ('datagma' is no typo of 'database') */
  private known: Set<string>;
  private knownByLetter: Map<string, string[]>;
  /** the catalog's words as written, with their stems: 'hunetr' is one edit from 'hunter', two from its stem 'hunt' */
  private written: Map<string, string>;
  private writtenByLetter: Map<string, string[]>;
  /** words of providers' names that no vocabulary holds: corrected to from one edit away only */
  private names: Set<string>;
  private corrections = new Map<string, string>();
  /** per word: the capabilities whose vocabulary holds it, with the weight of the best field for a wanted and a had word */
  private holders = new Map<string, { caps: Int32Array; wanted: Float64Array; had: Float64Array }>();

  /**
   * The engine built a slice of rows at a time, awaiting `pause()` between slices: a server answers
   * other requests while a large index loads, instead of stopping for all of it at once.
   */
  static async load(rows: SearchRow[], dump: SearchIndexDump, capabilities: CapabilityDoc[], pause: () => Promise<void>): Promise<SearchEngine> {
    const words = newRowWords();
    const byProvider = new Map<string, Set<string>>();
    for (let i = 0; i < rows.length; i += LOAD_SLICE) {
      await pause();
      addRowWords(words, rows.slice(i, i + LOAD_SLICE), byProvider);
    }
    await pause();
    return new SearchEngine(rows, dump, capabilities, words);
  }

  constructor(
    readonly rows: SearchRow[],
    dump: SearchIndexDump,
    readonly capabilities: CapabilityDoc[],
    words: RowWords = rowWords(rows),
  ) {
    for (const [k, v] of Object.entries(dump.rows)) this.index.import(k, v);
    for (const [k, v] of Object.entries(dump.capabilities)) this.capIndex.import(k, v);
    this.usd = Float64Array.from(rows, (r) => r.usd ?? Number.POSITIVE_INFINITY);
    this.cheapRank = new Int32Array(rows.length);
    this.byCheapRank = Int32Array.from(rows.keys()).sort((a, b) => this.usd[a] - this.usd[b] || a - b);
    this.byCheapRank.forEach((i, rank) => {
      this.cheapRank[i] = rank;
    });
    this.own = words.own;
    this.providerWords = words.providers;
    const capIds = new Map(capabilities.map((c, i) => [c.capability, i]));
    this.capIds = capIds;
    this.capOf = Int32Array.from(rows, (r) => capIds.get(r.capability) ?? -1);
    this.mark = new Uint32Array(rows.length * 2);
    this.routedOf = new Int32Array(capabilities.length).fill(-1);
    this.rowsOf = capabilities.map(() => []);
    this.pairs = capabilities.map(vocabularyPairs);
    this.written = words.written;
    const jobWords = new Set(capabilities.flatMap((c) => Object.values(capDoc(c, 0)).flatMap((v) => (typeof v === 'string' ? stemsOf(v, this.written) : []))));
    this.providerNames = providerNames(rows, (w) => stemsOf(w, new Map()).every((t) => jobWords.has(t)));
    this.names = new Set(this.providerWords.flatMap((w) => [...w].filter((t) => !jobWords.has(t))));
    this.known = new Set([...this.own.flatMap((w) => [...w]), ...this.names, ...jobWords]);
    this.knownByLetter = byFirstLetter(this.known);
    this.writtenByLetter = byFirstLetter(this.written.keys());
    rows.forEach((r, i) => {
      const c = this.capOf[i];
      if (c < 0) return;
      this.rowsOf[c].push(i);
      if (r.kind === 'routed') this.routedOf[c] = i;
    });
    // capabilities without a routed entry (vocabulary/ files) have a doc too: only a routed one lifts its rows
    this.base = Float64Array.from(
      rows,
      (r, i) => (this.capOf[i] >= 0 && this.routedOf[this.capOf[i]] >= 0 ? WEIGHT.routedCapability : 0) + (r.kind === 'utility' ? 0 : WEIGHT.data),
    );
    for (const list of this.rowsOf)
      list.sort((a, b) => Number(rows[b].kind === 'routed') - Number(rows[a].kind === 'routed') || this.usd[a] - this.usd[b] || a - b);
  }

  /** The query as search reads it: content terms, what the caller has, misspellings corrected; `names` as readQuery takes them. */
  read(q: string, names: boolean | CompanyCues = false): ReadQuery {
    return readQuery(this.named(q), (stemmed, written) => this.correct(stemmed, written), names);
  }

  private named(q: string): string {
    const names = this.providerNames;
    return names ? q.replace(names.pattern, (_whole, before: string, name: string) => `${before}${names.keys.get(name.toLowerCase())}`) : q;
  }

  private correct(stemmed: string, written: string): string {
    if (stemmed.length < 4 || this.known.has(stemmed)) return stemmed;
    let c = this.corrections.get(written);
    if (c === undefined) {
      if (this.corrections.size >= MEMO) this.corrections.clear();
      // among stems first (a misspelt inflection: 'verfying' is 'verify'), then as written (a misspelling that hides a suffix: 'hunetr')
      c =
        closest(stemmed, this.knownByLetter.get(stemmed[0]) ?? [], (k) => this.names.has(k)) ??
        this.written.get(closest(written, this.writtenByLetter.get(written[0]) ?? [], (k) => this.names.has(this.written.get(k) ?? '')) ?? '') ??
        stemmed;
      this.corrections.set(written, c);
    }
    return c;
  }

  private holdersOf(t: string): { caps: Int32Array; wanted: Float64Array; had: Float64Array } {
    let h = this.holders.get(t);
    if (h) return h;
    const wanted = new Map<number, number>();
    const had = new Map<number, number>();
    for (const { field, result } of this.capIndex.search(t, { limit: this.capabilities.length || 1 })) {
      for (const c of result) {
        wanted.set(c, Math.max(wanted.get(c) ?? 0, CAP_FIELDS[field].wanted));
        had.set(c, Math.max(had.get(c) ?? 0, CAP_FIELDS[field].had));
      }
    }
    const caps = Int32Array.from(wanted.keys());
    h = { caps, wanted: Float64Array.from(caps, (c) => wanted.get(c)!), had: Float64Array.from(caps, (c) => had.get(c)!) };
    if (this.holders.size >= MEMO) this.holders.clear();
    this.holders.set(t, h);
    return h;
  }

  /**
   * The query weighed against the capability vocabularies: per term, which vocabularies hold it (and
   * where) and how rare it is among them. Search ranks its rows by it; the hub ranks live tools by it
   * too (language/tool-search.ts), so a tool and an operation answer a query by the same rules.
   */
  weigh(q: string): Weighed {
    const read = this.read(q);
    const terms = read.terms.map((t) => t.term);
    const nCaps = this.capabilities.length;
    // Each term: which capability vocabularies hold it (and where), and how rare it is among them.
    const capWeight = new Float64Array(nCaps * terms.length);
    const idf = new Float64Array(terms.length);
    const heldByAJob = new Uint8Array(terms.length);
    const touched = new Set<number>();
    for (let k = 0; k < terms.length; k++) {
      const h = this.holdersOf(terms[k]);
      const weights = read.terms[k].had ? h.had : h.wanted;
      for (let j = 0; j < h.caps.length; j++) {
        capWeight[h.caps[j] * terms.length + k] = weights[j];
        touched.add(h.caps[j]);
      }
      idf[k] = 1 + Math.log(1 + nCaps / (1 + h.caps.length));
      heldByAJob[k] = h.caps.length > 0 ? 1 : 0;
    }
    // The weight a job's words can hold: words no vocabulary knows (a provider's name, a typo) are left out.
    const queryWeight = idf.reduce((sum, w, k) => sum + (heldByAJob[k] ? w : 0), 0);
    const capScore = new Float64Array(nCaps);
    const pairBonus = new Float64Array(nCaps);
    for (const c of touched) {
      for (let k = 0; k < terms.length; k++) capScore[c] += idf[k] * capWeight[c * terms.length + k];
      for (const p of read.pairs) if (this.pairs[c].has(p)) pairBonus[c] += WEIGHT.pair;
    }
    // The last word may be half typed: a prefix of a row's word counts, unless it is a whole word already.
    const last = terms.length && !this.known.has(terms[terms.length - 1]) ? terms.length - 1 : -1;
    return { read, terms, capWeight, idf, heldByAJob, queryWeight, capScore, pairBonus, touched, last };
  }

  /**
   * `measured(id)` says whether an endpoint has observations (live state). The routed entry and
   * cheapest rows of the capabilities `join` names are candidates too (the finder's reading of a job
   * names them: its words may not): the `limit` best rows are those a search without `join` gives, and
   * after them, marked `joined`, come the best rows (four each) of those capabilities not among them; a
   * row only `join` brought is not counted in `total`.
   */
  search(q: string, limit: number, measured: (id: string) => boolean, join: ReadonlySet<string> = NO_CAPABILITIES): { hits: SearchHit[]; total: number } {
    const { read, terms, capWeight, idf, heldByAJob, queryWeight, capScore, pairBonus, touched, last } = this.weigh(q);
    if (!terms.length) return { hits: [], total: 0 };

    // Candidates, the same for any limit up to the most a request may ask: what the operations index
    // finds first for the words as read (misspellings corrected); every row of the capabilities whose
    // job the query names (they are its operations), best capability first, until they number that
    // most; and the routed entry and cheapest rows of the capabilities whose jobs match best.
    const most = Math.max(MOST_ASKED, limit);
    const ids: number[] = [];
    if (this.query === 0xffffffff) {
      this.mark.fill(0);
      this.query = 0;
    } // the stamps start over before they wrap
    const stamp = ++this.query;
    const mark = this.mark;
    /** rows that matched, each counted once; a row past `room` candidates is counted, not ranked */
    let total = 0;
    const see = (i: number, room = Number.POSITIVE_INFINITY) => {
      if (mark[2 * i] === stamp) return;
      mark[2 * i] = stamp;
      total++;
      if (ids.length < room) ids.push(i);
    };
    for (const { field, result } of this.index.search(read.text, { limit: CANDIDATES, suggest: true })) {
      for (const i of result) {
        see(i);
        if (field === 'summary') mark[2 * i + 1] = stamp;
      }
    }
    const namesJob = (c: number) => capScore[c] > 0 && capScore[c] >= NAMES_JOB * queryWeight;
    const best = [...touched].sort((a, b) => capScore[b] - capScore[a] || a - b);
    const named = best.filter(namesJob);
    let rowsNamed = 0;
    let whole = 0;
    for (; whole < named.length && rowsNamed < most; whole++) {
      for (const i of this.rowsOf[named[whole]]) see(i);
      rowsNamed += this.rowsOf[named[whole]].length;
    }
    for (const c of best.slice(0, TOP_CAPABILITIES)) for (const i of this.rowsOf[c].slice(0, ROWS_PER_CAPABILITY)) see(i);
    // `total` counts every row of the capabilities whose job the query names, those past the most a
    // request asks too. A field's matches past the index's first are not counted: finding them is a
    // second search of the whole index.
    for (const c of named.slice(whole)) for (const i of this.rowsOf[c]) see(i, most);
    // rows `join` adds, which the words did not find: never among the best rows, only after them
    const joinedOnly = new Set<number>();
    for (const name of join)
      for (const i of this.rowsOf[this.capIds.get(name) ?? -1]?.slice(0, ROWS_PER_CAPABILITY) ?? []) {
        if (mark[2 * i] === stamp) continue;
        mark[2 * i] = stamp;
        ids.push(i);
        joinedOnly.add(i);
      }

    const score = new Float64Array(ids.length);
    const namesProvider = new Uint8Array(ids.length);
    for (let n = 0; n < ids.length; n++) {
      const i = ids[n];
      const own = this.own[i];
      const providers = this.providerWords[i];
      const c = this.capOf[i];
      let s = this.base[i] + (mark[2 * i + 1] === stamp ? WEIGHT.summary : 0) + (c >= 0 ? pairBonus[c] : 0);
      for (let k = 0; k < terms.length; k++) {
        const t = terms[k];
        let w = c >= 0 ? capWeight[c * terms.length + k] : 0;
        // A provider is named only by a word no job uses: 'Bouncer' does not name a provider in 'will it bounce'.
        if (!heldByAJob[k] && providers.has(t)) {
          w = Math.max(w, WEIGHT.providerWord);
          namesProvider[n] = 1;
        } else if (w < WEIGHT.ownWord && (own.has(t) || (k === last && startsWithAny(own, t)))) w = WEIGHT.ownWord;
        s += idf[k] * w;
      }
      score[n] = s;
    }
    // The routed entry of a capability whose job the query names ranks with the best of its children
    // that no provider name lifted, and before them.
    const bestChild = new Map<number, number>();
    ids.forEach((i, n) => {
      const c = this.capOf[i];
      if (c >= 0 && !namesProvider[n]) bestChild.set(c, Math.max(bestChild.get(c) ?? 0, score[n]));
    });
    ids.forEach((i, n) => {
      const c = this.capOf[i];
      if (c >= 0 && this.routedOf[c] === i && namesJob(c)) score[n] = Math.max(score[n], bestChild.get(c) ?? 0) + 0.01;
    });
    for (let k = 0; k < score.length; k++) score[k] = Math.round(score[k] * 1000) / 1000;

    // One number orders by score, then measured, then cheaper, then id (the rank built at load, one
    // per row), so a native numeric sort does it all and the row and its score read back from it.
    const n = this.rows.length;
    const key = new Float64Array(ids.length);
    for (let k = 0; k < ids.length; k++) {
      const i = ids[k];
      key[k] = (Math.round(score[k] * 1000) * 2 + (measured(this.rows[i].endpoint_id) ? 1 : 0)) * n + (n - 1 - this.cheapRank[i]);
    }
    key.sort();
    const hits: SearchHit[] = [];
    const past: SearchHit[] = [];
    /** rows of each capability of `join` given back past the best */
    const pastOf = new Map<string, number>();
    for (let j = key.length - 1; j >= 0; j--) {
      if (hits.length >= limit && !join.size) break;
      const scored = Math.floor(key[j] / n);
      const i = this.byCheapRank[n - 1 - (key[j] - scored * n)];
      const hit: SearchHit = { row: this.rows[i], score: Math.floor(scored / 2) / 1000 };
      if (hits.length < limit && !joinedOnly.has(i)) hits.push(hit);
      else if (join.has(hit.row.capability) && (pastOf.get(hit.row.capability) ?? 0) < ROWS_PER_CAPABILITY) {
        pastOf.set(hit.row.capability, (pastOf.get(hit.row.capability) ?? 0) + 1);
        past.push({ ...hit, joined: true });
      }
    }
    return { hits: past.length ? hits.concat(past) : hits, total };
  }
}
