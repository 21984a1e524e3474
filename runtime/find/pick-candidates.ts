// The finder's candidates: search's best rows, a few per capability, and, when none of them does the
// job as the job's reading says (taking all the caller named and giving the want), the rows of the
// capabilities that do, which search, weighing words, ranked lower: "I've got an email, find the
// company" shares more words with email finders than with companies.enrich, which takes the email and
// returns the company.
import type { Candidate } from './types.ts';
import type { JobReading } from './read-job.ts';

/**
 * Capabilities that give what the job wants and take an identity set of what it names it has, read as
 * the job reads it (an 'email address' is an email, not the address people.phone.identity_match takes);
 * none when it names nothing it has. A job that names who it is about and asks nothing has the
 * capability that tells who that is, though it may need more ('who is Jane Doe': a domain too).
 */
export function fitting(reading: JobReading): Set<string> {
  const has = new Set(reading.has);
  const doing = reading.fits.filter((f) => f.takes && !f.missing.length && f.takes.every((x) => has.has(x))).map((f) => f.capability);
  return new Set(reading.about ? [...doing, reading.about] : doing);
}

/**
 * at most `perCapability` rows of each capability, in order, its routed entry first where search gave
 * it at all: the one call that tries every child, cheapest first, is what a job is best served by,
 * however its words ranked it among its children
 */
function capped<C extends Pick<Candidate, 'capability'> & { kind?: string }>(rows: C[], perCapability: number): C[] {
  const routed = new Map(rows.filter((c) => c.kind === 'routed').map((c) => [c.capability, c]));
  const led = rows.flatMap((c) => {
    const lead = routed.get(c.capability);
    if (!lead) return [c];
    routed.delete(c.capability);
    return lead === c ? [c] : [lead, c];
  });
  const placed = new Set<C>();
  const count = new Map<string, number>();
  return led.filter((c) => {
    if (placed.has(c)) return false;
    placed.add(c);
    const n = count.get(c.capability) ?? 0;
    count.set(c.capability, n + 1);
    return n < perCapability;
  });
}

/**
 * `ranked` (search's order) cut to `most` rows, at most `perCapability` of each capability; when no row
 * kept is of a `fitting` capability, the rows of those past the cut, then those search gave back only
 * because its `join` named them (`joined`), take the last places, up to half of them.
 */
export function pickCandidates<C extends Pick<Candidate, 'capability'> & { kind?: string }>(
  ranked: C[],
  joined: C[],
  fitting: ReadonlySet<string>,
  most: number,
  perCapability: number,
): C[] {
  const kept = capped(ranked, perCapability);
  const first = kept.slice(0, most);
  if (first.some((c) => fitting.has(c.capability))) return first;
  const late = capped([...kept.slice(most), ...joined], perCapability)
    .filter((c) => fitting.has(c.capability))
    .slice(0, Math.floor(most / 2));
  return late.length ? [...first.slice(0, most - late.length), ...late] : first;
}
