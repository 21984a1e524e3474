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
  `Nothing does this: no operation in the catalog knows any word of '${job}'. Describe the data you want in a few words, such as "verify an email" or "company from a domain".`;

/**
 * Reads the act a job asks for, when it opens (after any of the finder's openers) with a verb no operation
 * does: 'book' of "please book a flight to Paris". Such a job shares words with the catalog ("paris",
 * "email") but asks svc to do something, not to read data. A verb that hands something over
 * (`gives`) followed by one of `to_caller` ("send me the emails of…", "share with us…") asks for
 * data; "book me a flight" is still an act.
 */
export function actReader(finder: FinderSrc): (job: string) => string | null {
  // prepared once per catalog: the finder's words as a job's written words read
  const openers = finder.openers.map(writtenWords).sort((a, b) => b.length - a.length);
  const toCaller = finder.to_caller.map(writtenWords);
  const acts = new Set(finder.acts);
  const gives = new Set(finder.gives);
  return (job) => {
    let words = writtenWords(job);
    for (let opener = openers.find((o) => startsWith(words, o)); opener; opener = openers.find((o) => startsWith(words, o))) words = words.slice(opener.length);
    const [verb, ...rest] = words;
    const forCaller = gives.has(verb) && toCaller.some((w) => startsWith(rest, w));
    return verb !== undefined && acts.has(verb) && !forCaller ? verb : null;
  };
}
const startsWith = (words: string[], start: string[]) => start.length > 0 && start.every((w, i) => words[i] === w);

/** The finder's verdict for a job that asks svc to act. */
export const actVerdict = (job: string, act: string): string =>
  `Nothing does this: every operation in the catalog reads data (it looks up, finds, checks or lists); none can ${act} for you ('${job}'). Describe the data you want, such as "verify an email" or "company from a domain".`;
