// What a job says, read against every capability's vocabulary and contract: which fields the caller
// has (words of a capability's `has` list where the sentence names what they have), which outputs
// they want (its `gets` list and job words where the sentence names the want), and for each
// capability whether it can take the one and give the other. Deterministic; no network.
import type { CapabilityDoc } from '../../language/types.ts';
import { contentWords, type QueryTerm, type ReadQuery } from '../../language/read-query.ts';

export interface Fit {
  capability: string;
  /** the identity set it would be called with; null when the job names nothing the caller has */
  takes: string[] | null;
  /** fields of `takes` the job did not name */
  missing: string[];
  /** outputs the job asks for (the capability's main output when only the job's words matched) */
  returns: string[];
}

export interface Chain {
  first: Fit;
  then: Fit;
  /** outputs of `first` that `then` takes */
  via: string[];
}

export interface JobReading {
  /** fields the caller has, as capabilities name them */
  has: string[];
  /** outputs the caller wants, as capabilities name them */
  wants: string[];
  /** capabilities that take what the caller has (or may, when nothing is named) and give what they want, best first */
  fits: Fit[];
  /** capabilities that give what the caller wants but take none of what they have */
  unfit: Fit[];
  /** when none fits: a capability that gives the want, fed by one that takes what the caller has */
  chain: Chain | null;
}

interface Phrase {
  words: string[];
  field: string;
}
interface Vocabulary {
  doc: CapabilityDoc;
  has: Phrase[];
  gets: Phrase[];
  job: Phrase[];
}

const phrases = (byField: Record<string, string[]>): Phrase[] =>
  Object.entries(byField)
    .flatMap(([field, words]) => words.map((w) => ({ words: contentWords(w), field })))
    .filter((p) => p.words.length);
/** a job phrase that little words shrink to one word says less than it did ('people lookup' is not 'people') */
const jobPhrase = (text: string): Phrase[] => {
  const words = contentWords(text);
  return words.length > 1 || (words.length === 1 && !/\s/.test(text.trim())) ? [{ words, field: '' }] : [];
};

/** Prepared once per catalog: every capability's phrases as content words. */
export function vocabularies(docs: CapabilityDoc[]): Vocabulary[] {
  return docs.map((doc) => ({
    doc,
    has: phrases(doc.vocabulary.has),
    gets: phrases(doc.vocabulary.gets),
    job: [doc.capability.replaceAll('.', ' '), ...doc.vocabulary.terms].flatMap(jobPhrase),
  }));
}

/** where `p` occurs in the sequence: the side (had or wanted) of its first word, each time */
function occurrences(seq: QueryTerm[], p: Phrase): Array<{ had: boolean }> {
  const out: Array<{ had: boolean }> = [];
  for (let i = 0; i + p.words.length <= seq.length; i++) {
    if (p.words.every((w, k) => seq[i + k].term === w)) out.push({ had: seq[i].had });
  }
  return out;
}

interface Matched {
  hasFields: Set<string>;
  getsFields: Set<string>;
  job: boolean;
}

function match(v: Vocabulary, seq: QueryTerm[]): Matched {
  const m: Matched = { hasFields: new Set(), getsFields: new Set(), job: false };
  for (const p of v.has) if (occurrences(seq, p).some((o) => o.had)) m.hasFields.add(p.field);
  for (const p of v.gets) if (occurrences(seq, p).some((o) => !o.had)) m.getsFields.add(p.field);
  m.job = v.job.some((p) => occurrences(seq, p).some((o) => !o.had));
  return m;
}

/** the identity set best covered by what the caller has: fully covered first, then the fewest missing */
function bestSet(doc: CapabilityDoc, has: Set<string>): { set: string[]; missing: string[] } | null {
  let best: { set: string[]; missing: string[] } | null = null;
  for (const set of doc.identity) {
    if (!set.some((f) => has.has(f))) continue;
    const missing = set.filter((f) => !has.has(f));
    if (!best || missing.length < best.missing.length) best = { set, missing };
  }
  return best;
}

export function readJob(read: ReadQuery, vocab: Vocabulary[]): JobReading {
  const seq = read.sequence;
  const matched = vocab.map((v) => ({ v, m: match(v, seq) }));
  const named = matched.some(({ m }) => m.hasFields.size > 0);
  const fits: Fit[] = [];
  const wanting: Array<{ v: Vocabulary; m: Matched }> = [];
  const unfit: Fit[] = [];
  for (const { v, m } of matched) {
    if (!m.job && !m.getsFields.size) continue;
    const returns = m.getsFields.size ? [...m.getsFields] : [Object.keys(v.doc.vocabulary.gets)[0] ?? v.doc.output[0]];
    const set = bestSet(v.doc, m.hasFields);
    const fit = { capability: v.doc.capability, takes: set?.set ?? null, missing: set?.missing ?? [], returns };
    if (named && !set) {
      wanting.push({ v, m });
      unfit.push(fit);
    } else fits.push(fit);
  }
  // Those that take all the caller named first; the judge keeps search's order within each group.
  fits.sort((a, b) => Number(Boolean(b.takes) && !b.missing.length) - Number(Boolean(a.takes) && !a.missing.length));
  const has = [...new Set(matched.flatMap(({ m }) => [...m.hasFields]))];
  const wants = [...new Set(matched.flatMap(({ m }) => [...m.getsFields]))];
  return { has, wants, fits, unfit, chain: fits.length ? null : chainFor(wanting, matched) };
}

/** A capability that takes what the caller has and returns fields that a wanted capability takes. */
function chainFor(wanting: Array<{ v: Vocabulary; m: Matched }>, matched: Array<{ v: Vocabulary; m: Matched }>): Chain | null {
  for (const { v: then, m: tm } of wanting) {
    for (const { v: first, m: fm } of matched) {
      if (first === then) continue;
      const start = bestSet(first.doc, fm.hasFields);
      if (!start || start.missing.length) continue;
      const outputs = new Set(first.doc.output);
      const next = then.doc.identity.find((set) => set.every((f) => outputs.has(f)));
      if (!next) continue;
      return {
        first: { capability: first.doc.capability, takes: start.set, missing: [], returns: next },
        // biome-ignore lint/suspicious/noThenProperty: a field of the JSON answer ('first … then …'); an object, so never a thenable
        then: { capability: then.doc.capability, takes: next, missing: [], returns: tm.getsFields.size ? [...tm.getsFields] : [then.doc.output[0]] },
        via: next,
      };
    }
  }
  return null;
}
