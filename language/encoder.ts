// How search and the finder's judge turn text into terms: FlexSearch's own Encoder, configured for
// light English normalisation. Case and accents fold, punctuation splits, 'e-mail' reads 'email', and
// a short suffix stemmer makes plurals and verb forms meet (verifies/verifying/verification ->
// verify, companies -> company), except for words kept apart from what their stem means (`APART`).
// No node imports: the same encoder runs in the browser.
import FlexSearch from 'flexsearch';
import type { EncoderOptions } from 'flexsearch';

type EncoderLike = { encode(text: string): string[] };
const Encoder = (FlexSearch as unknown as { Encoder: new (o: EncoderOptions) => EncoderLike }).Encoder;

/** suffix -> replacement, applied until none matches; the longest suffix wins */
const STEMS: Array<[string, string]> = [
  ['ication', 'y'],
  ['ation', ''],
  ['ies', 'y'],
  ['ied', 'y'],
  ['ier', 'y'],
  ['ing', ''],
  ['ate', ''],
  ['ed', ''],
  ['er', ''],
  ['e', ''],
  ['s', ''],
];

/**
 * Words that read as themselves, not as their stem, because the stem's other words mean something
 * else: each key is the term its forms read as. The stemmer cuts a suffix it ends in (or a letter it
 * doubles), so no other word reads as a key. Add a word here when two of a stem's words name
 * different needs; a word whose forms all mean one thing stays with the stemmer.
 */
export const APART: Readonly<Record<string, readonly string[]>> = {
  // "companies like stripe" (lookalikes) is no 'likes' of a post or video ('likes', 'liked', 'likers' still meet)
  like: ['like'],
  // "news about stripe" is not 'new' ("new companies in fintech")
  news: ['news'],
  // a 'seed' round or seed company is nothing one may 'see'
  seed: ['seed', 'seeds'],
  // "add a contact" is no 'ad' ("linkedin ads")
  add: ['add', 'adds', 'added', 'adding'],
  // the company someone works for is no headcount ('employees', 'employee count' still meet)
  employer: ['employer', 'employers'],
  // a video's viewers say things under it (comments); its views are a count (its detail)
  viewer: ['viewer', 'viewers'],
  // a company's founders are people; when it was founded is a year
  founder: ['founder', 'founders', 'cofounder', 'cofounders'],
  // to ring someone wants their phone (the stemmer would leave 'r')
  ring: ['ring'],
};

/** words that carry no need: grammar, politeness, filler */
export const STOPWORDS = new Set([
  'a',
  'an',
  'the',
  'and',
  'or',
  'of',
  'for',
  'to',
  'in',
  'on',
  'at',
  'by',
  'from',
  'with',
  'via',
  'into',
  'about',
  'is',
  'are',
  'was',
  'be',
  'do',
  'does',
  'did',
  'can',
  'could',
  'will',
  'would',
  'should',
  'i',
  'we',
  'you',
  'me',
  'my',
  'our',
  'your',
  'their',
  'his',
  'her',
  'this',
  'that',
  'these',
  'those',
  'it',
  'its',
  'there',
  'what',
  'which',
  'how',
  'who',
  'whos',
  'whom',
  'where',
  'when',
  'why',
  'some',
  'any',
  'all',
  'get',
  'got',
  'give',
  'need',
  'want',
  'have',
  'has',
  'please',
  'pls',
  'api',
  'endpoint',
  'tool',
  'way',
  'using',
  'use',
  'given',
  'just',
  'one',
  'someone',
  'something',
  'look',
  'lookup',
  'up',
  'out',
  'if',
  'than',
  'more',
  'them',
  'they',
  'he',
  'she',
  'him',
  'am',
  'so',
]);

/** Literals a caller pastes become the words for what they are: 'sam@stripe.com' reads 'this email'. */
const LITERALS: Array<[RegExp, string]> = [
  [/[a-z0-9._%+-]+@[a-z0-9-]+(\.[a-z0-9-]+)+/g, ' this email '],
  [/(https?:\/\/)?([a-z]+\.)?linkedin\.com\/in\/[^\s]*/g, ' from linkedin profile url '],
  [/(https?:\/\/)?([a-z]+\.)?linkedin\.com\/company\/[^\s]*/g, ' from linkedin company page url '],
  [/(https?:\/\/)?([a-z]+\.)?linkedin\.com\/(posts|feed)\/[^\s]*/g, ' from linkedin post url '],
  [/(https?:\/\/)?([a-z]+\.)?(youtube\.com\/watch|youtu\.be\/)[^\s]*/g, ' from youtube video url '],
  [/(https?:\/\/)?[a-z0-9-]+(\.[a-z0-9-]+)*\.(com|io|ai|co|net|org|dev|app|de|fr|uk|so|xyz)\b[^\s]*/g, ' this domain '],
  // a UK company number: eight digits, or two letters and six ('SC123456'), shorter than a phone number
  [/\b(?:\d{8}|(?:sc|ni|oc|so|nc|fc|lp|r0)\d{6})\b/g, ' this company number '],
  // a LinkedIn activity id has 19 digits, no phone number as many
  [/\b(urn:li:[a-z]+:)?\d{19}\b/g, ' this activity id '],
  [/\+?\d[\d\s().-]{7,}\d/g, ' from phone number '],
];

/**
 * Where each literal a caller pasted ends in `wordEncoder.encode(text)`: the index of its last word ('domain'
 * of 'this domain' for 'stripe.com'). What follows a pasted value is no longer the value ('jane doe at
 * stripe.com phone number' wants the phone number).
 */
export function literalEnds(text: string): number[] {
  const folded = text.toLowerCase();
  return LITERALS.flatMap(([re]) => [...folded.matchAll(re)].map((m) => wordEncoder.encode(text.slice(0, m.index + m[0].length)).length - 1));
}

const prepare = (text: string) => LITERALS.reduce((s, [re, words]) => s.replace(re, words), text.replace(/\be-mail/g, 'email')).replace(/[’']s\b/g, '');

/** a letter no word is written with and no suffix of `STEMS` ends in: a word marked with it passes the stemmer whole */
const MARK = 'ǂ';
const apartForms = new Map(Object.entries(APART).flatMap(([key, forms]) => forms.map((form) => [form, key] as const)));
// ASCII word boundaries: the text is normalised (case and accents folded) before it is prepared
const APART_WORDS = new RegExp(`\\b(${[...apartForms.keys()].join('|')})\\b`, 'g');
/** the marked words as the encoder gives them back (it reads a doubled letter once: 'seedǂ' comes back 'sedǂ'), to each its key */
const marked = new Map(Object.keys(APART).map((key) => [`${key.replace(/(.)\1+/gu, '$1')}${MARK}`, key]));
const keepApart = (text: string) => prepare(text).replace(APART_WORDS, (form) => `${apartForms.get(form)}${MARK}`);
const unmark = (terms: string[]) => terms.map((t) => marked.get(t) ?? t);

const BASE: EncoderOptions = {
  normalize: true,
  dedupe: true,
  prepare: keepApart,
  finalize: unmark,
  stemmer: new Map(STEMS),
  minlength: 1,
  // FlexSearch hands out cached term arrays that indexing then changes: a second build in one process differed.
  cache: false,
};

/** For the index and search queries: stopwords dropped. */
export const searchEncoder: EncoderLike = new Encoder({ ...BASE, filter: STOPWORDS });
/** For reading a job sentence: every word kept, so 'from', 'this', 'who' stay visible to the judge. */
export const sentenceEncoder: EncoderLike = new Encoder(BASE);
/** Words as written (folded, literals read), before stemming: 'these' and 'the' stay apart. */
export const wordEncoder: EncoderLike = new Encoder({ normalize: true, prepare, dedupe: false, cache: false });
