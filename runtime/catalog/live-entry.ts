// A catalog entry with its live parts filled in: observed and reviews on the endpoint and on every
// sibling, and the routing plan re-ordered by measured cost per hit.
import type { CatalogEntry, EndpointOut } from '../../language/types.ts';
import type { LiveData } from './live.ts';
import { measuredHitRate, usdPerHit } from '../router/expected-cost.ts';

function patchEndpoint(e: EndpointOut, live: LiveData): void {
  e.observed = live.observed(e.id);
  const reviews = live.reviews(e.id);
  if (reviews) e.reviews = reviews;
}

/** A USD amount rounded to whole micro-USD, so price / hit rate shows no float noise (0.0030000000000000001). */
const wholeMicro = (usd: number | null): number | null => (usd === null || !Number.isFinite(usd) ? usd : Math.round(usd * 1_000_000) / 1_000_000);

export function withLive(entry: CatalogEntry, live: LiveData): CatalogEntry {
  patchEndpoint(entry.endpoint, live);
  entry.siblings.forEach((s) => patchEndpoint(s, live));
  if (entry.routing) {
    const list = new Map(entry.routing.plan.map((p) => [p.endpoint_id, p.usd_per_hit]));
    for (const row of entry.routing.plan) {
      const observed = live.observed(row.endpoint_id);
      row.hit_rate = measuredHitRate(observed);
      row.usd_per_hit = wholeMicro(usdPerHit(list.get(row.endpoint_id) ?? null, observed));
    }
    entry.routing.plan.sort((a, b) => (a.usd_per_hit ?? Infinity) - (b.usd_per_hit ?? Infinity) || a.endpoint_id.localeCompare(b.endpoint_id));
  }
  return entry;
}
