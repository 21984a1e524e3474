// Whether a job names anything the catalog knows. Search also matches by letters (a last word as a
// prefix, a near spelling), so keyboard mash and jobs from elsewhere ("bake a cake") still bring rows
// back; the finder and the dashboard answer those "nothing does this" instead of offering the rows as
// picks. A job counts as known when one of its words is a word of an operation (name, id, provider,
// terms) or of a capability's vocabulary. No node imports: the dashboard runs it too.
import type { CapabilityDoc, SearchRow } from '../../language/dist-types.ts';
import type { FinderSrc } from '../../language/source-types.ts';
import { searchEncoder } from '../../language/encoder.ts';

export interface CatalogWords {
  /** every word as search's encoder reads it */
  encoded: Set<string>;
  /** every word as written, lower case: a half-typed word is checked as a prefix of one of these */
  written: string[];
}

const textOf = (r: SearchRow) => `${r.name} ${r.endpoint_id.replaceAll('.', ' ')} ${r.provider_display} ${(r.terms ?? []).join(' ')}`;
const vocabularyText = (d: CapabilityDoc) =>
  [
    d.capability.replaceAll('.', ' '),
    d.description,
    ...d.vocabulary.terms,
    ...d.vocabulary.phrasings,
    ...Object.values(d.vocabulary.has).flat(),
    ...Object.values(d.vocabulary.gets).flat(),
  ].join(' ');
const writtenWords = (text: string): string[] => text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];

/** Prepared once per catalog. */
export function catalogWords(rows: SearchRow[], docs: CapabilityDoc[]): CatalogWords {
  const texts = [...rows.map(textOf), ...docs.map(vocabularyText)];
  return {
    encoded: new Set(texts.flatMap((t) => searchEncoder.encode(t))),
    written: [...new Set(texts.flatMap(writtenWords))],
  };
}

/**
 * True when none of the job's terms (search's reading of it) is a catalog word. `typing`: the job
 * is being typed, so its last written word may be the start of one ('zero' of 'zerobounce').
 */
export function namesNothing(words: CatalogWords, terms: string[], job: string, typing = false): boolean {
  // a lone letter ('aaaa' as the encoder reads it) names nothing, though 'series b' holds one
  if (terms.some((t) => t.length > 1 && words.encoded.has(t))) return false;
  const last = typing && /[\p{L}\p{N}]$/u.test(job) ? writtenWords(job).at(-1) : undefined;
  return !(last && words.written.some((w) => w.startsWith(last)));
}

/** The finder's verdict for such a job, in the user's words. */
export const nothingVerdict = (job: string): string =>
  `${job.trim() ? `Nothing does this: no operation in the catalog knows any word of '${job}'.` : 'No job given.'} Describe the data you want in a few words, such as "verify an email" or "company from a domain".`;

/**
 * Reads the act a job asks for, when it opens (after any of the finder's openers) with a verb no operation
 * does: 'book' of "please book a flight to Paris". Such a job shares words with the catalog ("paris",
 * "email") but asks svc to do something, not to read data. It asks for data after all when a verb
 * that hands something over (`gives`) is followed by one of `to_caller` ("send me the emails of…",
 * "share with us…") or by a datum of someone ("share the phone number of…": what stands between
 * `datum_opens` and `datum_of` holds a word of what some capability gets), or when the job asks how
 * to reach a person (`asks_how` and `means`: "how can I call this person"), or when the verb is a noun
 * after all: followed by one of `datum_of` ("text of a linkedin post"), or opening two words a
 * capability's vocabulary names data by ("post reactions", not "call a"); "book me a flight",
 * "send the report to my boss" and "call this person" stay acts.
 */
export function actReader(finder: FinderSrc, docs: CapabilityDoc[]): (job: string) => string | null {
  // prepared once per catalog: the finder's words as a job's written words read
  const asksHow = (finder.asks_how ?? []).map(writtenWords);
  const openers = [...finder.openers.map(writtenWords), ...asksHow].sort((a, b) => b.length - a.length);
  const toCaller = finder.to_caller.map(writtenWords);
  const [acts, gives, means, datumOpens, datumOf] = [finder.acts, finder.gives, finder.means, finder.datum_opens, finder.datum_of].map(
    (words) => new Set(words ?? []),
  );
  const gotten = new Set(docs.flatMap((d) => Object.entries(d.vocabulary.gets).flatMap(([field, said]) => [field, ...said.flatMap(writtenWords)])));
  // two words a vocabulary names data by ("post reactions", "install counts"): an act's word opening
  // such a pair is a noun; a pair whose second word is a determiner ("call a lead") is a verb's
  const determiners = new Set(finder.determiners ?? []);
  const nounPairs = new Set(
    docs
      .flatMap((d) => [...d.vocabulary.terms, ...Object.values(d.vocabulary.has).flat(), ...Object.values(d.vocabulary.gets).flat()])
      .flatMap((phrase) => writtenWords(phrase).flatMap((w, i, all) => (i + 1 < all.length && !determiners.has(all[i + 1]) ? [`${w} ${all[i + 1]}`] : []))),
  );
  const namesDatum = (object: string[]) => {
    const end = object.findIndex((w) => datumOf.has(w));
    return datumOpens.has(object[0]) && end > 1 && object.slice(1, end).some((w) => gotten.has(w));
  };
  return (job) => {
    let words = writtenWords(job);
    let askedHow = false;
    for (let opener = openers.find((o) => startsWith(words, o)); opener; opener = openers.find((o) => startsWith(words, o))) {
      askedHow ||= asksHow.includes(opener);
      words = words.slice(opener.length);
    }
    const [verb, ...rest] = words;
    if (verb === undefined || !acts.has(verb)) return null;
    // the act's word as a noun: followed by `of` ("text of a post") or opening a vocabulary's pair ("post reactions")
    if (datumOf.has(rest[0]) || nounPairs.has(`${verb} ${rest[0]}`)) return null;
    if (askedHow && means.has(verb)) return null;
    const forCaller = toCaller.some((w) => startsWith(rest, w));
    return gives.has(verb) && (forCaller || namesDatum(rest)) ? null : verb;
  };
}
const startsWith = (words: string[], start: string[]) => start.length > 0 && start.every((w, i) => words[i] === w);

/** The finder's verdict for a job that asks svc to act. */
export const actVerdict = (job: string, act: string): string =>
  `Nothing does this: every operation in the catalog reads data (it looks up, finds, checks or lists); none can ${act} for you ('${job}'). Describe the data you want, such as "verify an email" or "company from a domain".`;
