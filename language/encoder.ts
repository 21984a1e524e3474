// How search and the finder's judge turn text into terms: FlexSearch's own Encoder, configured for
// light English normalisation. Case and accents fold, punctuation splits, 'e-mail' reads 'email', and
// a short suffix stemmer makes plurals and verb forms meet (verifies/verifying/verification ->
// verify, companies -> company). No node imports: the same encoder runs in the browser.
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
  [/\+?\d[\d\s().-]{7,}\d/g, ' from phone number '],
];

const prepare = (text: string) => LITERALS.reduce((s, [re, words]) => s.replace(re, words), text.replace(/\be-mail/g, 'email')).replace(/[’']s\b/g, '');

const BASE: EncoderOptions = {
  normalize: true,
  dedupe: true,
  prepare,
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
