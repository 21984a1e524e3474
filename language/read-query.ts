// Reads a need as a sentence: its content terms, and which of them name what the caller already has.
// 'email for a linkedin profile': 'email' is wanted, 'linkedin' and 'profile' are had. A term is had
// when it follows a word like from, by, for, of, with, or 'I have' (until a word like to, into, get turns the
// sentence back to what is wanted), or is the word after this, my, their (after their, its, his, her only
// before the sentence names a want: 'get its domain' wants the domain). Search weighs had terms against a capability's
// `has` words, the finder's judge matches them against identity sets. The finder also reads names written out:
// a person's ('Jane Doe'), or a company's when the job says so ('people at Acme Robotics', 'Acme Corp').
// No node imports (browser-safe).
import { literalEnds, sentenceEncoder, STOPWORDS, wordEncoder } from './encoder.ts';

/** stems of words seen, bounded: stemming a word runs the whole encoder */
const stemmed = new Map<string, string>();
const stem = (w: string): string => {
  let s = stemmed.get(w);
  if (s === undefined) {
    if (stemmed.size >= 20_000) stemmed.clear();
    s = sentenceEncoder.encode(w)[0] ?? w;
    stemmed.set(w, s);
  }
  return s;
};

/** after these, the words name what the caller has, until a want-marker */
const HAVE_MARKERS = new Set(['from', 'by', 'for', 'of', 'with', 'using', 'given', 'via', 'behind', 'at', 'on', 'about', 'based']);
/** these mark only the next word: 'this email', 'my list' */
const DETERMINERS = new Set(['this', 'these', 'that', 'those', 'my', 'our', 'their', 'his', 'her', 'its']);
/**
 * these refer back to what the caller has, but what follows them is its datum: once the sentence turns
 * to its want ('get its domain', 'want their emails') that is wanted; they mark only a word before any want
 */
const POSSESSIVES = new Set(['their', 'his', 'her', 'its']);
/** 'list of', 'search for', 'number of': the words after 'of' or 'for' still name the want */
const NOT_MARKING = new Set(['list', 'lists', 'search', 'number', 'lot', 'lots', 'kind', 'type', 'set', 'group', 'count', 'look']);
const OF_FOR = new Set(['of', 'for']);
/** 'I have', "we've got", 'I already know': these mark what follows as had when a first-person subject says them */
const HOLDING = new Set(['have', 'got', 'know', 'hold', 'own']);
/** the subjects that make one of `HOLDING` say what the caller holds ('ve' of "I've"), at most two words before it */
const HOLDERS = new Set(['i', 'we', 've']);
/** a person's name as written: two or more capitalised words in a row ('Jane Doe') */
const CAPITALISED = /\p{Lu}\p{Ll}+(?:\s+\p{Lu}\p{Ll}+)+/gu;
/** a word written capitalised */
const INITIAL = /\p{Lu}\p{Ll}+/gu;
/** words after 'of' or 'for' that may be a name ('email of jane doe at…'): two or three before a little word or the end */
const NAME_WORDS = [2, 3];
/** after such words, these say where the person is ('of Sara Connor at cyberdyne.com'): the words are where a person's name stands */
const PLACE_MARKERS = new Set(['at', 'from']);
/** what a place follows ('in lagos', 'near 94103') */
const PLACED = new Set(['in', 'near', 'around']);
/** a job asking who (or "who's": the encoder drops the 's) ends on where a person's name stands: 'who is Jane Doe' */
const WHO = new Set(['who', 'whos']);
/** a number ('10k', '500', the two of '1,000'): before a plural, or another number, a count, which says how many, never what */
const NUMBER = /^\d+[km]?$/;
/** a count ('10k emails', '1,000 leads'), not a name's number ('e.164 numbers'; a phone number is read as one before) */
const isCount = (raw: string[], i: number): boolean =>
  NUMBER.test(raw[i]) && raw[i - 1]?.length !== 1 && (NUMBER.test(raw[i + 1] ?? '') || /[a-z]s$/.test(raw[i + 1] ?? ''));
const BEING = new Set(['is', 'was']);
/** a word written with 's or s', whose datum follows ("jane doe's email", "Bill Gates' email") */
const POSSESSIVE = /([\p{L}\p{N}]+)['\u2019]s\b|([\p{L}\p{N}]+s)['\u2019](?=\s|$)/gu;
/** 'looking for', 'searching for': the 'for' after these asks for what follows, it marks no had */
const SEEKING = new Set(['look', 'looking', 'search', 'searching', 'seeking', 'hunting']);
/** these turn the sentence back to what the caller wants ('which company do they work for', 'where do they work' ask for it) */
const WANT_MARKERS = new Set(['to', 'into', 'get', 'then', 'want', 'need', 'return', 'returns', 'give', 'find', 'which', 'what', 'where']);
/** pairs skip these: 'company from a domain' pairs as 'company from domain', so an article never changes a ranking */
const ARTICLES = new Set(['a', 'an', 'the']);
/** a job opening with these asks whether something the caller holds is so ('is this a valid email', 'does this address exist') */
const ASKING = new Set(['is', 'are', 'was', 'were', 'does']);
/** notes written as a conversion, 'email -> company': what stands before the arrow is had, what follows it wanted */
const ARROW = /\s*(?:->|=>|\u2192|\u21d2|\u27f6)\s*/u;
const pairsIn = (words: string[]): string[] => words.slice(1).map((b, k) => `${words[k]} ${b}`);

export interface QueryTerm {
  term: string;
  /** the caller has it (it follows a have-marker) */
  had: boolean;
  /** written as a person's name may be: capitalised beside another capitalised word, or one of two or three words right after 'of' or 'for' */
  name?: boolean;
  /** such a name that the job says is a company's: it ends with a company suffix ('Acme Corp') or follows a company cue ('at Acme Robotics') */
  company?: boolean;
  /**
   * one of two or three words between 'of' or 'for' and 'at' or 'from' ('email of Sara Connor at acme.com'),
   * or right before 'at' or 'from' ('Jane Doe at acme.com'), where a person's name stands: `capitalised`
   * when each is written so after of or for, `titled` before at or from (a job title is written so too:
   * 'Marketing Directors at Shopify'); left as written, uncorrected
   */
  slot?: 'capitalised' | 'titled' | 'lower';
  /** had only as the word after this, my, their…: the finder reads it as wanted when only a want names it ('check my credits') */
  determined?: boolean;
  /** a `slot` word as spelling would correct it, when that differs: the finder reads it so when the slot holds no name */
  corrected?: string;
}

/** What makes a name written in a job a company's rather than a person's (the finder's data: finder.yaml), as written words. */
export interface CompanyCues {
  /** a name's last word, or the word right after it, that only a company's name has: 'Acme Corp', 'Blue Origin Inc' */
  suffixes: ReadonlySet<string>;
  /** the word right before a name that makes it a company's: 'people at Acme Robotics', 'the startup Blue Origin' */
  before: ReadonlySet<string>;
}
const NO_CUES: CompanyCues = { suffixes: new Set(), before: new Set() };

export interface ReadQuery {
  /** every word, little ones kept, misspellings corrected */
  words: string[];
  /** content terms, each once, in order */
  terms: QueryTerm[];
  /** content words in sentence order, repeats kept, each with whether the caller has it */
  sequence: QueryTerm[];
  /** adjacent word pairs of the whole sentence, little words kept but articles */
  pairs: string[];
  /** the sentence as written, each misspelling replaced by what it meant: what the operations index is searched with */
  text: string;
  /** it asks whether what the caller holds is so (it opens with one of ASKING): the words a capability takes name that, not a want */
  asks: boolean;
}

/** `correct` may replace a content word the catalog does not know (given stemmed and as written) by the stem of one it does */
/** `names`: mark the words that may be a name, and with cues, those a company's (the finder reads them; search does not) */
export function readQuery(written: string, correct: (stemmed: string, written: string) => string = (s) => s, names: boolean | CompanyCues = false): ReadQuery {
  // 'email -> company' reads as 'email to company', its words before the arrow had
  const [before, ...after] = written.split(ARROW);
  const q = after.length ? [before, ...after].join(' to ') : written;
  const given = after.length ? wordEncoder.encode(before).length : 0;
  const raw = wordEncoder.encode(q);
  const pasted = new Set(literalEnds(q));
  const { named, company, slot } = names ? nameWords(q, raw, names === true ? NO_CUES : names) : { named: NONE, company: NONE, slot: NO_SLOT };
  // a place is no misspelling either: 'startups in lagos' are not logos
  const corrected = raw.map((w, i) => (STOPWORDS.has(w) || PLACED.has(raw[i - 1]) ? stem(w) : correct(stem(w), w)));
  // a name is no misspelling: 'Connor' is not 'color'
  const words = corrected.map((c, i) => (slot.has(i) ? stem(raw[i]) : c));
  const terms: QueryTerm[] = [];
  const sequence: QueryTerm[] = [];
  const seen = new Set<string>();
  let had = false;
  let determined = false;
  let wanting = false;
  raw.forEach((w, i) => {
    const seeking = w === 'for' && SEEKING.has(raw[i - 1]);
    if (HAVE_MARKERS.has(w) && !seeking && !(OF_FOR.has(w) && i > 0 && NOT_MARKING.has(raw[i - 1]))) had = true;
    // 'I have …', and the same with its subject dropped, as notes are written: 'got a list of emails, need …'
    else if (HOLDING.has(w) && (i === 0 || raw.slice(Math.max(0, i - 2), i).some((x) => HOLDERS.has(x)))) had = true;
    // one before an article stands for the thing itself ('is this a valid email'): it marks no word
    else if (DETERMINERS.has(w)) determined = !(POSSESSIVES.has(w) && wanting) && !ARTICLES.has(raw[i + 1]);
    else if (WANT_MARKERS.has(w) || seeking) {
      had = false;
      determined = false;
      wanting = true;
    }
    if (STOPWORDS.has(w) || isCount(raw, i)) return;
    const term: QueryTerm = { term: words[i], had: had || determined || i < given };
    if (determined && !had && i >= given) term.determined = true;
    if (named.has(i)) term.name = true;
    if (company.has(i)) term.company = true;
    const kind = slot.get(i);
    if (kind) term.slot = kind;
    if (kind && corrected[i] !== words[i]) term.corrected = corrected[i];
    determined = false;
    // a value the caller pasted, or a company's name, ends what it was had by ('at stripe.com phone
    // number', 'at Acme Robotics phone number' want the number)
    if (pasted.has(i) || (company.has(i) && !company.has(i + 1))) had = false;
    sequence.push(term);
    if (seen.has(term.term)) return;
    seen.add(term.term);
    terms.push(term);
  });
  return {
    words,
    terms,
    sequence,
    pairs: pairsIn(words.filter((_, i) => !ARTICLES.has(raw[i]))),
    text: raw.map((w, i) => (words[i] === stem(w) ? w : words[i])).join(' '),
    asks: ASKING.has(raw[0]),
  };
}

const NONE: ReadonlySet<number> = new Set();
type Slot = NonNullable<QueryTerm['slot']>;
const NO_SLOT: ReadonlyMap<number, Slot> = new Map();

/**
 * Positions of `raw` (the encoded words of `q`) that may be a name, and those of them whose run of
 * words the job says is a company's (a suffix ends it, or a cue stands right before it): whether a
 * name is a person's or a company's, and which words of it a vocabulary knows, is the finder's to say.
 */
function nameWords(q: string, raw: string[], cues: CompanyCues): { named: Set<number>; company: Set<number>; slot: Map<number, Slot> } {
  const named = new Set<number>();
  const slot = new Map<number, Slot>();
  const capitalised = new Set([...q.matchAll(CAPITALISED)].flatMap((m) => m[0].toLowerCase().split(/\s+/)));
  const initials = new Set([...q.matchAll(INITIAL)].map((m) => m[0].toLowerCase()));
  const place = new Set<number>();
  raw.forEach((w, i) => {
    if (capitalised.has(w) && (capitalised.has(raw[i - 1]) || capitalised.has(raw[i + 1]))) named.add(i);
    if (!OF_FOR.has(w)) return;
    let n = 0;
    while (i + 1 + n < raw.length && !STOPWORDS.has(raw[i + 1 + n])) n++;
    if (!NAME_WORDS.includes(n)) return;
    const run = raw.slice(i + 1, i + 1 + n);
    // 'phone number of Emily Page at…': a person where the words are had or not
    if (PLACE_MARKERS.has(raw[i + 1 + n]) && i + 2 + n < raw.length) {
      // capitals tell a name only where the word before is written plain (not 'Emails Of Sales People At…'); a sentence opens with one
      const titled = i > 1 && initials.has(raw[i - 1]);
      const kind = run.every((x) => capitalised.has(x)) && !titled ? 'capitalised' : 'lower';
      for (let k = 1; k <= n; k++) slot.set(i + k, kind);
      // where the person is, written capitalised, is a company's name, one word as well ('Sam Page at Stripe')
      let m = i + 2 + n;
      while (m < raw.length && !STOPWORDS.has(raw[m]) && initials.has(raw[m])) place.add(m++);
    }
    if (!NOT_MARKING.has(raw[i - 1])) for (let k = 1; k <= n; k++) named.add(i + k);
  });
  // the two or three words right before where the person is ("enrich jane doe at stripe.com", "Mark
  // Zuckerberg email at meta.com"), not after of or for (read above), are where a person's name stands
  // as well: capitalised words there are the name, unless a job title (the finder tells); lower-case
  // ones the finder trims of the words a vocabulary knows ('find john smith email': john smith)
  raw.forEach((w, i) => {
    if (!PLACE_MARKERS.has(w) || i + 1 >= raw.length) return;
    let start = i - 1;
    while (start > 0 && i - start < 3 && !STOPWORDS.has(raw[start - 1])) start--;
    let run = Array.from({ length: i - start }, (_, k) => start + k);
    if (run.length < 2 || run.some((k) => STOPWORDS.has(raw[k]) || slot.has(k)) || OF_FOR.has(raw[start - 1])) return;
    const first = run.findIndex((k) => capitalised.has(raw[k]));
    const names = first >= 0 ? run.slice(first).filter((k, n) => n === 0 || capitalised.has(raw[k])) : [];
    if (names.length >= 2 && names.every((k, n) => n === 0 || k === names[n - 1] + 1)) run = names;
    const kind = run.every((k) => capitalised.has(raw[k])) ? 'titled' : 'lower';
    for (const k of run) slot.set(k, kind);
  });
  // the two or three words that end a job asking who ('who is Jane Doe', "who's john smith")
  const who = raw.findIndex((w) => WHO.has(w));
  const start = who + 1 + (BEING.has(raw[who + 1]) ? 1 : 0);
  if (who >= 0 && NAME_WORDS.includes(raw.length - start) && !raw.slice(start).some((w, k) => STOPWORDS.has(w) || slot.has(start + k))) {
    const kind = raw.slice(start).every((w) => capitalised.has(w)) ? 'capitalised' : 'lower';
    for (let k = start; k < raw.length; k++) slot.set(k, kind);
  }
  // the two words before a possessive ("jane doe's email", "Goldman Sachs' headcount") may be a name,
  // a person's or a company's, as two capitalised words may: the finder tells which from the job
  for (const m of q.matchAll(POSSESSIVE)) {
    const at = raw.indexOf((m[1] ?? m[2]).toLowerCase());
    if (at > 0 && !STOPWORDS.has(raw[at - 1]) && !STOPWORDS.has(raw[at])) named.add(at - 1).add(at);
  }
  const company = new Set<number>();
  for (let start = 0; start < raw.length; start++) {
    if (!named.has(start) || named.has(start - 1)) continue;
    let end = start;
    while (named.has(end + 1)) end++;
    if (cues.before.has(raw[start - 1]) || cues.suffixes.has(raw[end]) || cues.suffixes.has(raw[end + 1])) for (let k = start; k <= end; k++) company.add(k);
  }
  for (const k of place) {
    named.add(k);
    company.add(k);
  }
  return { named, company, slot };
}

/** the pairs of any text, as readQuery gives them for a query */
export const pairsOf = (text: string): string[] =>
  pairsIn(
    wordEncoder
      .encode(text)
      .filter((w) => !ARTICLES.has(w))
      .map(stem),
  );

/** the content words of a phrase, as readQuery's sequence holds them */
export const contentWords = (text: string): string[] =>
  wordEncoder
    .encode(text)
    .filter((w) => !STOPWORDS.has(w))
    .map(stem);
