// How a hit rate reads wherever one is shown (dashboard, CLI): below MIN_DECIDED_SAMPLES decided
// calls a share would overstate what is known, so the counts are shown instead ("3 of 4 hits"). The
// average cost per hit always says how many calls it covers, "only" while they are that few.
// No node imports (browser-safe).
import type { Observed } from './dist-types.ts';

/** decided calls (hits and misses) from which a hit rate is shown as a share; the router's threshold too */
export const MIN_DECIDED_SAMPLES = 20;

/** the hit rate once enough calls decided, else null */
export const measuredHitRate = (o: Observed | null | undefined): number | null => (o && o.decided >= MIN_DECIDED_SAMPLES ? o.hit_rate : null);

export function hitRateWords(o: Observed | null | undefined): string {
  if (!o || !o.decided) return 'not measured';
  const rate = measuredHitRate(o);
  return rate === null ? `${o.hit_samples} of ${o.decided} hits` : `${Math.round(rate * 100)}%`;
}

const calls = (n: number) => `${n} call${n === 1 ? '' : 's'}`;

/** "40 calls", "only 4 calls" while they are too few for a rate */
const fewCalls = (n: number) => `${n < MIN_DECIDED_SAMPLES ? 'only ' : ''}${calls(n)}`;

/** "over 40 calls", "over only 4 calls": what a measured figure covers */
export const overCalls = (n: number): string => `over ${fewCalls(n)}`;

/** a routed entry's average cost per hit and the calls it covers; `money` formats micro-USD */
export function costPerHitWords(o: Observed | null | undefined, money: (micro: number) => string): string {
  const p = o?.paid;
  if (!p) return 'not recorded yet';
  return p.per_hit_micro === null
    ? `no hit yet in ${fewCalls(p.calls)} (${money(p.total_micro)} paid)`
    : `${money(p.per_hit_micro)} per hit ${overCalls(p.calls)}`;
}
