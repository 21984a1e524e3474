// What a job says, read against every capability's vocabulary and contract: which fields the caller
// has (words of a `has` list where the sentence names what they have, or the thing the job acts on:
// the email of "verify an email"), which outputs they want (a `gets` list and job words where the
// sentence names the want), and for each capability whether it can take the one and give the other.
// Deterministic; no network.
import type { CapabilityDoc } from '../../language/types.ts';
import type { QueryTerm, ReadQuery } from '../../language/read-query.ts';
import { apart, covered, spans, type Phrase, type Vocabularies, type Vocabulary } from './vocabularies.ts';
import { personSlots, withCompanies } from './company-names.ts';

export interface Fit {
  capability: string;
  /** the identity set it would be called with; null when the job names nothing it takes */
  takes: string[] | null;
  /** fields of `takes` the job did not name */
  missing: string[];
  /** outputs the job asks for (the capability's main output when only the job's words matched) */
  returns: string[];
  /** its identity sets, any one of which it takes */
  accepts: string[][];
}

export interface Chain {
  first: Fit;
  then: Fit;
  /** outputs of `first` that `then` takes */
  via: string[];
}

export interface JobReading {
  /** fields the job names, each phrase as the catalog reads it (its field's name, else most vocabularies' reading) */
  has: string[];
  /** words the job names its subject by that name no one input ('person': a name, or a LinkedIn URL?), as read (stems) */
  vague: string[];
  /** outputs the caller wants, as capabilities name them */
  wants: string[];
  /** capabilities that take what the caller has (or may, when nothing is named) and give what they want, best first */
  fits: Fit[];
  /** capabilities that give what the caller wants but take none of what they have */
  unfit: Fit[];
  /** when none fits: a capability that gives the want, fed by one that takes what the caller has */
  chain: Chain | null;
  /** the platforms the job names, as the finder lists them */
  platforms: string[];
  /** those of them no capability here is named after */
  unread: string[];
  /** capabilities that give the want on another platform than the one the job names: none of them does the job */
  elsewhere: Array<Fit & { platform: string }>;
  /** the capability that tells who or what the job is about, when it names that and asks nothing (finder.yaml `about`) */
  about: string | null;
}

/**
 * A person's name written in the job ('Jane Doe', 'email of jane doe at…', 'jane doe email
 * stripe.com'): two or more words next to each other that no vocabulary knows and no phrase read. Read only
 * where it completes an identity set with what else the caller has (a name and a domain), or beside
 * a company's name the job writes out ('Jane Doe at Acme Robotics'): alone, two capitalised words are
 * as often a company ('Blue Origin').
 */
function namesPerson(seq: QueryTerm[], read: Set<number>, has: string[], vocab: Vocabularies, company: boolean): boolean {
  const field = vocab.name;
  if (!field || has.includes(field)) return false;
  // a name is what the caller has wherever it stands ('Jane Doe stripe.com email'); one where a person's
  // name stands may hold words a vocabulary knows ('David Price')
  const named = (i: number) => seq[i]?.slot !== undefined || (seq[i] !== undefined && !read.has(i) && !vocab.words.has(seq[i].term));
  const run = seq.some((_, i) => named(i) && named(i + 1));
  // words kept where a person's name stands ('who is jane doe at stripe', "jane doe's email") are one, completing nothing
  const slotted = seq.some((t, i) => t.slot !== undefined && seq[i + 1]?.slot !== undefined);
  return run && (slotted || company || vocab.list.some((v) => v.doc.identity.some((set) => set.includes(field) && set.some((f) => has.includes(f)))));
}

/**
 * The words a job acts on: in "verify an email" the email is no want but what the caller has, though
 * an email finder wants an email, since the verifier names its job 'verify email' and takes an email.
 * A capability reads them where one of its job phrases names the act with its object: its `has`
 * phrases that begin inside such a phrase ('email address' of "check an email address"), outside its
 * `gets`, where another capability's `gets` would read a want. Read by the capability that explains
 * most of the job's wanted words, unless another explains as many acting on other words; never a
 * platform's name alone ('linkedin posts' hold no linkedin_url). A job that asks whether something is
 * so (`asks`: 'is this a valid email') names what a capability acts on wherever its `has` words stand.
 */
function actedOn(seq: QueryTerm[], list: Vocabulary[], vocab: Vocabularies, asks: boolean): Set<number> {
  const gets = new Map(list.map((v) => [v, covered(seq, v.gets)]));
  const wants = new Set([...gets.values()].flatMap((at) => [...at]));
  const readings = list.flatMap((v) => {
    const job = new Set([...covered(seq, v.job), ...apart(seq, v.job), ...(asks ? covered(seq, v.has) : [])]);
    // words on the want side only: a job phrase may run on into what the caller has ('email to person' in "email of this person")
    const wanted = new Set([...gets.get(v)!, ...job].filter((i) => !seq[i].had));
    if (!wanted.size) return [];
    const found = new Set(
      v.has
        .filter((p) => !vocab.vague.has(p.key) && !p.words.every((w) => vocab.platforms.has(w)))
        .flatMap((p) => spans(seq, p, false))
        .filter((at) => job.has(at[0]) && !at.some((i) => gets.get(v)!.has(i)) && at.some((i) => wants.has(i)))
        .flat(),
    );
    // it acts on a word only while it wants another
    const objects = [...wanted].some((i) => !found.has(i)) ? found : new Set<number>();
    return [{ objects, explained: new Set([...wanted, ...objects]).size }];
  });
  const most = Math.max(0, ...readings.map((r) => r.explained));
  const [lead, ...rivals] = readings.filter((r) => r.explained === most);
  const same = (a: Set<number>, b: Set<number>) => a.size === b.size && [...a].every((i) => b.has(i));
  return lead && rivals.every((r) => same(r.objects, lead.objects)) ? lead.objects : new Set();
}

interface Matched {
  hasFields: Set<string>;
  /** it reads a word the job names its subject by, though no one input ('person') */
  subject: boolean;
  getsFields: Set<string>;
  job: boolean;
}

/**
 * `seq`: had and wanted as the job reads, what it acts on had; `asked`: as the sentence marks them, where
 * job phrases (which name the act with its object) stand; `where`: `gets` phrases that only say where
 * the want is read ('linkedin' of "linkedin followers of a company"), no want of their own; `company`:
 * the job writes out a company's name
 */
function match(
  v: Vocabulary,
  seq: QueryTerm[],
  asked: QueryTerm[],
  vague: Set<string>,
  where: (p: Phrase) => boolean,
  person: string | null,
  company: boolean,
  freeWords: boolean,
): Matched {
  const had = v.has.filter((p) => spans(seq, p, true).length);
  // a name the job writes out fills the name field of whichever capability takes one, a company's the field its vocabulary reads 'company name' as
  const named = [...(person && v.doc.identity.some((set) => set.includes(person)) ? [person] : []), ...(company && v.company ? [v.company] : [])];
  // a job term led by the capability's own platform names where, had or not ('on google maps')
  const job = apart(asked, v.job).length > 0 || v.job.some((p) => spans(asked, p, false).length || (p.words[0] === v.platform && spans(asked, p, true).length));
  const getsFields = new Set(v.gets.filter((p) => !where(p) && spans(seq, p, false).length).map((p) => p.field));
  // words the job has that no phrase reads are a search's query, where the job names the search ('google results for best crm software');
  // a want alone ('numbers', 'posts') names no search, so its words are read as they are
  const text = v.doc.vocabulary.free_text && job && freeWords ? [v.doc.vocabulary.free_text] : [];
  return {
    hasFields: new Set([...had.filter((p) => !vague.has(p.key)).map((p) => p.field), ...named, ...text]),
    subject: had.some((p) => vague.has(p.key)),
    getsFields,
    job,
  };
}

/** what a capability gives when the job names none of its outputs: its vocabulary's first */
const mainOutput = (v: Vocabulary) => Object.keys(v.doc.vocabulary.gets)[0] ?? v.doc.output[0];

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

/** had and wanted as the job reads (`asked` with what it acts on had), and the had phrases not inside a longer one */
function phrasesRead(marked: QueryTerm[], here: Vocabulary[], vocab: Vocabularies, asks: boolean) {
  // the word after my, this… is had, unless only a want names it: 'check my credits' wants them
  const asked = marked.map((t) => (t.determined && vocab.wantedOnly.has(t.term) ? { ...t, had: false } : t));
  const objects = actedOn(asked, here, vocab, asks);
  const seq = asked.map((t, i) => (objects.has(i) ? { ...t, had: true } : t));
  const occurrences = [...vocab.named, ...[...vocab.vague].map((key) => ({ key, words: key.split(' '), field: '' }))].flatMap((p) =>
    spans(seq, p, true).map((at) => ({ at, p })),
  );
  const inside = (a: number[], b: number[]) => b.length > a.length && a.every((i) => b.includes(i));
  const outer = occurrences.filter((o) => !occurrences.some((x) => inside(o.at, x.at))).sort((a, b) => a.at[0] - b.at[0]);
  return { asked, seq, outer };
}

/**
 * The job's sequence with the names it writes out read, and the fields it names (`has`): a name the job
 * says is a company's ('people at Acme Robotics') is one, and the caller has it; a name beside it, or
 * completing a set, a person's. A name that is neither may still be a company's ('enrich Blue Origin')
 * when no capability that gives the want takes a person's name: the capabilities that take a company's
 * name read it then (`company`), while it names nothing to the rest.
 */
function readNames(read: ReadQuery, here: Vocabulary[], vocab: Vocabularies) {
  const slotted = personSlots(read.sequence, vocab, true);
  const named = namesRead(slotted, here, vocab, read.asks);
  // words where a name stands that complete nothing are read as words after all, spelling corrected
  return named.person || !slotted.some((t) => t.slot) ? named : namesRead(personSlots(read.sequence, vocab, false), here, vocab, read.asks);
}

function namesRead(sequence: QueryTerm[], here: Vocabulary[], vocab: Vocabularies, asks: boolean) {
  const companies = withCompanies(sequence, vocab.words, (t) => t.company === true);
  let { asked, seq, outer } = phrasesRead(companies.seq, here, vocab, asks);
  // what the job names: each had phrase not inside a longer one, read as its field
  const has = [...new Set(outer.flatMap((o) => (o.p.field ? [o.p.field] : [])))];
  const person = namesPerson(seq, new Set(outer.flatMap((o) => o.at)), has, vocab, companies.named) ? vocab.name : null;
  if (person) has.push(person);
  if (companies.named && vocab.company && !has.includes(vocab.company)) has.push(vocab.company);
  // "email of Jane Doe" wants what takes a person's name: the name may be hers, so it is no company's
  const field = vocab.name;
  const wantsPerson =
    field !== null &&
    vocab.list.some(
      (v) =>
        v.doc.identity.some((set) => set.includes(field)) &&
        (v.job.some((p) => spans(asked, p, false).length) || v.gets.some((p) => spans(seq, p, false).length)),
    );
  const maybe = person || companies.named || wantsPerson ? null : withCompanies(asked, vocab.words, (t) => t.name === true);
  if (maybe?.named) ({ asked, seq, outer } = phrasesRead(maybe.seq, here, vocab, asks));
  return { asked, seq, outer, has, person, company: companies.named || Boolean(maybe?.named) };
}

/**
 * Fits that take all the caller named first, then those that use more of it (a name and a domain find
 * her email, the domain alone every address there); the judge keeps search's order within each group.
 */
export function fitOrder(has: string[]): (a: Fit, b: Fit) => number {
  const complete = (f: Fit) => Number(Boolean(f.takes) && !f.missing.length);
  const used = (f: Fit) => (f.takes ?? []).filter((field) => has.includes(field)).length;
  return (a, b) => complete(b) - complete(a) || used(b) - used(a);
}

export function readJob(read: ReadQuery, vocab: Vocabularies): JobReading {
  const platforms = new Set(read.words.filter((w) => vocab.platforms.has(w)));
  const elsewhere = (v: Vocabulary) => v.platform !== null && platforms.size > 0 && !platforms.has(v.platform);
  const here = vocab.list.filter((v) => !elsewhere(v));
  const { asked, seq, outer, has, person, company } = readNames(read, here, vocab);
  const vague = [...new Set(outer.flatMap((o) => (o.p.field ? [] : [o.p.key])))];
  // a platform's name is the want only when the job wants nothing else ('linkedin of this person')
  const platformOnly = (p: Phrase) => p.words.every((w) => vocab.platforms.has(w));
  const wantsMore = vocab.list.some(
    (v) => v.job.some((p) => spans(asked, p, false).length) || v.gets.some((p) => !platformOnly(p) && spans(seq, p, false).length),
  );
  const phrased = new Set(outer.flatMap((o) => o.at));
  const freeWords = seq.some((t, i) => t.had && !phrased.has(i) && !t.name);
  const matched = vocab.list.map((v) => ({ v, m: match(v, seq, asked, vocab.vague, (p) => wantsMore && platformOnly(p), person, company, freeWords) }));
  const fits: Fit[] = [];
  const unfit: Fit[] = [];
  const away: JobReading['elsewhere'] = [];
  const wanting: Array<{ v: Vocabulary; m: Matched }> = [];
  for (const { v, m } of matched) {
    if (!m.job && !m.getsFields.size) continue;
    const returns = m.getsFields.size ? [...m.getsFields] : [mainOutput(v)];
    const set = bestSet(v.doc, m.hasFields);
    const fit = { capability: v.doc.capability, takes: set?.set ?? null, missing: set?.missing ?? [], returns, accepts: v.doc.identity };
    if (elsewhere(v)) away.push({ ...fit, platform: vocab.platforms.get(v.platform!)! });
    // when the job names something, one that takes none of it does not fit, unless it reads the job's vague subject ('company')
    else if ((has.length || vague.length) && !set && !m.subject) {
      wanting.push({ v, m });
      unfit.push(fit);
    } else fits.push(fit);
  }
  const about = fits.length || unfit.length || away.length ? undefined : aboutOf(seq, phrased, has, vocab, (v) => !elsewhere(v));
  const told = about && bestSet(about.doc, matched.find(({ v }) => v === about)!.m.hasFields);
  if (about && told)
    fits.push({ capability: about.doc.capability, takes: told.set, missing: told.missing, returns: [mainOutput(about)], accepts: about.doc.identity });
  fits.sort(fitOrder(has));
  const wants = [...new Set(matched.flatMap(({ v, m }) => (elsewhere(v) ? [] : [...m.getsFields])))];
  const covering = new Set(vocab.list.map((v) => v.platform));
  return {
    has,
    vague,
    wants,
    fits,
    unfit,
    chain: fits.length
      ? null
      : chainFor(
          wanting,
          matched.filter(({ v }) => !elsewhere(v)),
        ),
    platforms: [...platforms].map((w) => vocab.platforms.get(w)!),
    unread: [...platforms].filter((w) => !covering.has(w)).map((w) => vocab.platforms.get(w)!),
    elsewhere: away,
    about: about && told ? about.doc.capability : null,
  };
}

/**
 * For a job that names who or what it is about and asks nothing of it, who or what that is: the
 * capability of finder.yaml's `about` for the first of its fields the job names (a person before where
 * they work). The job says nothing else: each word is in a phrase it names, a name, a word no vocabulary
 * knows, or one of that capability's job or gets ('enrich', 'behind'); 'an api for finding emails' says
 * more than the email.
 */
function aboutOf(seq: QueryTerm[], phrased: Set<number>, has: string[], vocab: Vocabularies, here: (v: Vocabulary) => boolean): Vocabulary | undefined {
  const saysOnly = (v: Vocabulary) => {
    const own = new Set([...v.job, ...v.gets].flatMap((p) => p.words));
    return seq.every((t, i) => phrased.has(i) || t.slot !== undefined || t.company || !vocab.words.has(t.term) || own.has(t.term));
  };
  return [...vocab.about].find(([field, v]) => has.includes(field) && here(v) && saysOnly(v))?.[1];
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
        first: { capability: first.doc.capability, takes: start.set, missing: [], returns: next, accepts: first.doc.identity },
        // biome-ignore lint/suspicious/noThenProperty: a field of the JSON answer ('first … then …'); an object, so never a thenable
        then: {
          capability: then.doc.capability,
          takes: next,
          missing: [],
          returns: tm.getsFields.size ? [...tm.getsFields] : [then.doc.output[0]],
          accepts: then.doc.identity,
        },
        via: next,
      };
    }
  }
  return null;
}
