// Expected cost per hit: the list price until a child has enough decided samples, then price / hit
// rate. One rule for the catalog's routing.plan and the live planner.
import type { Observed } from '../../language/types.ts';
import { measuredHitRate } from '../../language/hit-rate-words.ts';

export { MIN_DECIDED_SAMPLES, measuredHitRate } from '../../language/hit-rate-words.ts';

export function usdPerHit(listUsdPerHit: number | null, observed: Observed | null): number | null {
  const rate = measuredHitRate(observed);
  if (listUsdPerHit === null) return null;
  if (rate === null) return listUsdPerHit;
  return rate > 0 ? listUsdPerHit / rate : Number.POSITIVE_INFINITY;
}
