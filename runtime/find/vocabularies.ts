// The catalog's vocabularies as the finder reads jobs against them (read-job.ts): every capability's
// `has`, `gets` and job phrases as content words, prepared once per catalog, and where a phrase stands
// in a job's sequence of words.
import type { CapabilityDoc } from '../../language/types.ts';
import { contentWords, type QueryTerm } from '../../language/read-query.ts';

export interface Phrase {
  words: string[];
  field: string;
  /** the words joined: the same phrase in any vocabulary */
  key: string;
}
export interface Vocabulary {
  doc: CapabilityDoc;
  has: Phrase[];
  gets: Phrase[];
  job: Phrase[];
  /** the platform its name begins with (linkedin.company.profile), when that is one the finder lists */
  platform: string | null;
  /** the field its `has` reads 'company name' as (companies.enrich: name): a company's name written in a job fills it */
  company: string | null;
}
export interface Vocabularies {
  list: Vocabulary[];
  /** `has` phrases that name different inputs of one capability in different vocabularies */
  vague: Set<string>;
  /** every other `has` phrase, with the field it reads as */
  named: Phrase[];
  /** the finder's platforms as a job's words read them, to each as listed */
  platforms: Map<string, string>;
  /** every word of every vocabulary's phrases: a word none of them holds may be a name */
  words: Set<string>;
  /** words of `gets` phrases that no `has` phrase holds: data a caller only ever wants ('credits') */
  wantedOnly: Set<string>;
  /** the field vocabularies read a person's name as ('full name'), when one does */
  name: string | null;
  /** the field most vocabularies read a company's name as ('company name'), when one does */
  company: string | null;
  /** by field, the capability that tells who or what a job is about when it names that and asks nothing (finder.yaml `about`) */
  about: Map<string, Vocabulary>;
}

const phrase = (text: string, field: string): Phrase | null => {
  const words = contentWords(text);
  return words.length ? { words, field, key: words.join(' ') } : null;
};
const phrases = (byField: Record<string, string[]>): Phrase[] =>
  Object.entries(byField).flatMap(([field, texts]) => texts.flatMap((t) => phrase(t, field) ?? []));
/** a job phrase that little words shrink to one word says less than it did ('people lookup' is not 'people') */
const jobPhrase = (text: string): Phrase[] => {
  const p = phrase(text, '');
  return p && (p.words.length > 1 || !/\s/.test(text.trim())) ? [p] : [];
};

/** Prepared once per catalog: every capability's phrases as content words, and the finder's platforms. */
export function vocabularies(docs: CapabilityDoc[], platforms: string[] = [], about: Record<string, string> = {}): Vocabularies {
  const listed = new Map(platforms.map((p) => [contentWords(p)[0] ?? p, p]));
  const companyKey = contentWords(COMPANY_NAME).join(' ');
  const list = docs.map((doc) => {
    const first = contentWords(doc.capability.split('.')[0])[0];
    const has = phrases(doc.vocabulary.has);
    return {
      doc,
      has,
      gets: phrases(doc.vocabulary.gets),
      job: [doc.capability.replaceAll('.', ' '), ...doc.vocabulary.terms].flatMap(jobPhrase),
      platform: first !== undefined && listed.has(first) ? first : null,
      company: has.find((p) => p.key === companyKey)?.field ?? null,
    };
  });
  // how many vocabularies read each has phrase as each field
  const readings = new Map<string, Map<string, number>>();
  for (const p of list.flatMap((v) => v.has)) {
    const fields = readings.get(p.key) ?? readings.set(p.key, new Map()).get(p.key)!;
    fields.set(p.field, (fields.get(p.field) ?? 0) + 1);
  }
  // 'person' is a full_name to people.email.find and a linkedin_url to linkedin.user.posts, and
  // people.email.find takes either: the word says who the job is about, not which input the caller holds
  const vague = new Set<string>();
  for (const { doc, has } of list) {
    const alternatives = (f: string, g: string) =>
      f !== g &&
      doc.identity.some((s) => s.includes(f)) &&
      doc.identity.some((s) => s.includes(g)) &&
      !doc.identity.some((s) => s.includes(f) && s.includes(g));
    const ownFields = new Map<string, Set<string>>();
    for (const p of has) (ownFields.get(p.key) ?? ownFields.set(p.key, new Set()).get(p.key)!).add(p.field);
    for (const [key, fields] of readings) {
      const own = ownFields.get(key) ?? new Set();
      const read = [...fields.keys()];
      // a vocabulary that reads the phrase as both settles it ('website': domain or website, either will do)
      if (read.some((f) => read.some((g) => alternatives(f, g) && !(own.has(f) && own.has(g))))) vague.add(key);
    }
  }
  // a phrase that is a field's name reads as that field ('video': video, not url), else as most vocabularies read it
  const fieldOf = (key: string, fields: Map<string, number>) =>
    fields.has(key.replaceAll(' ', '_')) ? key.replaceAll(' ', '_') : [...fields].reduce((a, b) => (b[1] > a[1] ? b : a))[0];
  const named = [...readings].filter(([key]) => !vague.has(key)).map(([key, fields]) => ({ key, words: key.split(' '), field: fieldOf(key, fields) }));
  const words = new Set([...list.flatMap((v) => [...v.has, ...v.gets, ...v.job].flatMap((p) => p.words)), ...listed.keys()]);
  const name = named.find((p) => p.key === contentWords(PERSON_NAME).join(' '))?.field ?? null;
  const company = named.find((p) => p.key === companyKey)?.field ?? null;
  const held = new Set(list.flatMap((v) => v.has.flatMap((p) => p.words)));
  const wantedOnly = new Set(list.flatMap((v) => v.gets.flatMap((p) => p.words)).filter((w) => !held.has(w)));
  const byName = new Map(list.map((v) => [v.doc.capability, v]));
  const told = new Map(Object.entries(about).flatMap(([field, capability]) => (byName.has(capability) ? [[field, byName.get(capability)!] as const] : [])));
  return { list, vague, named, platforms: listed, words, wantedOnly, name, company, about: told };
}

/** how vocabularies call a person's name: the field they read it as is the one a name written in a job fills */
const PERSON_NAME = 'full name';
/** how vocabularies call a company's name: each capability takes one written in a job as the field its own vocabulary reads this as */
const COMPANY_NAME = 'company name';

/**
 * where `p` occurs in the sequence, its first word on the `had` side: the positions it covers, each time;
 * a had phrase never covers a company's name (its word 'company' is no domain: read-job's `match` reads it),
 * no phrase a person's ('Emily Page' asks for no page)
 */
export function spans(seq: QueryTerm[], p: Phrase, had: boolean): number[][] {
  const out: number[][] = [];
  for (let i = 0; i + p.words.length <= seq.length; i++) {
    if (seq[i].had !== had || !p.words.every((w, k) => seq[i + k].term === w && !seq[i + k].slot)) continue;
    if (!had || !p.words.some((_, k) => seq[i + k].company)) out.push(p.words.map((_, k) => i + k));
  }
  return out;
}
export const covered = (seq: QueryTerm[], ps: Phrase[]) => new Set(ps.flatMap((p) => spans(seq, p, false).flat()));
/** where a two-word job phrase stands with one wanted word between its words ('find a valid email': find … email), its two words */
export const apart = (seq: QueryTerm[], ps: Phrase[]) =>
  ps.flatMap(({ words: [act, object, ...more] }) =>
    more.length || object === undefined
      ? []
      : seq.flatMap((t, i) => (t.term === act && !t.had && !seq[i + 1]?.had && seq[i + 2]?.term === object && !seq[i + 2].had ? [i, i + 2] : [])),
  );
