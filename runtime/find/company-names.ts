// Names written out in a job. A company's ('people at Acme Robotics', 'enrich Acme Corp'): the finder
// reads it as one had word standing for 'company', so job phrases still read it ('enrich company'),
// while only a capability whose vocabulary reads 'company name' takes it (read-job.ts); a `has` phrase
// of the word 'company' (a domain, to an email finder) does not, since a name is no domain. And the
// words where a person's name stands ('email of Sara Connor at acme.com'), kept as a name or not.
import { contentWords, type QueryTerm } from '../../language/read-query.ts';

/** the word a company's name stands for in the job's sequence */
export const COMPANY = contentWords('company')[0];

/** a known word that opens the job, or a run of known words: no name */
const unmarked = ({ term, had, name }: QueryTerm): QueryTerm => (name ? { term, had, name } : { term, had });

/**
 * The sequence with each run of terms `marked` ('Acme Robotics') made one had term for the company. A
 * job's first word is capitalised as any sentence's is: a run it opens loses it when a vocabulary knows
 * it (`known`: 'Enrich Blue Origin' is 'enrich' and a name), and a run of known words only is none.
 * `named`: whether any run was.
 */
export function withCompanies(seq: QueryTerm[], known: ReadonlySet<string>, marked: (t: QueryTerm) => boolean): { seq: QueryTerm[]; named: boolean } {
  const out: QueryTerm[] = [];
  let named = false;
  for (let i = 0; i < seq.length; ) {
    if (!marked(seq[i])) {
      out.push(seq[i++]);
      continue;
    }
    let end = i;
    while (end + 1 < seq.length && marked(seq[end + 1])) end++;
    let first = i === 0 && known.has(seq[0].term) ? 1 : i;
    // words a vocabulary knows, each of them, are no name ('marketing people' of "emails for marketing people")
    if (seq.slice(first, end + 1).every((t) => known.has(t.term))) first = end + 1;
    out.push(...seq.slice(i, first).map(unmarked));
    if (first <= end) {
      out.push({ term: COMPANY, had: true, company: true });
      named = true;
    }
    i = end + 1;
  }
  return { seq: out, named };
}

/**
 * The sequence with the words where a person's name stands ('email of Sara Connor at acme.com') kept as
 * a name when `keep` and they may be one: capitalised after of or for ('David Price', though a vocabulary
 * knows 'price'); capitalised right before at or from unless a vocabulary knows every word or one is a
 * datum only ever wanted, a job title ('Marketing Directors at Shopify'); written lower-case, two or
 * more that no vocabulary knows once known words at either end are left out ('emails of sales people
 * at…' names no one; 'find john smith email at…' names john smith); none a company's. Otherwise they
 * are plain words, as spelling corrects them.
 */
export function personSlots(seq: QueryTerm[], vocab: { words: ReadonlySet<string>; wantedOnly: ReadonlySet<string> }, keep: boolean): QueryTerm[] {
  const out: QueryTerm[] = [];
  const known = (t: QueryTerm) => vocab.words.has(t.term);
  const plain = ({ slot: _slot, corrected, ...t }: QueryTerm): QueryTerm => ({ ...t, term: corrected ?? t.term });
  for (let i = 0; i < seq.length; ) {
    let end = i;
    while (seq[i].slot && end + 1 < seq.length && seq[end + 1].slot) end++;
    const run = seq.slice(i, end + 1);
    const kind = run[0].slot;
    // lower-case words a vocabulary knows at either end are no part of the name ('enrich jane doe', 'john smith email')
    let [from, to] = [0, run.length];
    if (kind === 'lower') {
      while (from < to && known(run[from])) from++;
      while (to > from && known(run[to - 1])) to--;
    }
    const core = run.slice(from, to);
    const reads =
      kind === 'capitalised' ||
      (kind === 'titled' && !core.every(known) && !core.some((t) => vocab.wantedOnly.has(t.term))) ||
      (kind === 'lower' && !core.some(known));
    const name = keep && kind !== undefined && core.length >= 2 && !run.some((t) => t.company) && reads;
    out.push(...(name ? [...run.slice(0, from).map(plain), ...core, ...run.slice(to).map(plain)] : run.map(plain)));
    i = end + 1;
  }
  return out;
}
