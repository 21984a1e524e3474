// The live parts of catalog reads (measured behaviour, reviews, traffic), composed from where each
// is kept: observations in state, review summaries in feedback, platforms in the catalog.
import type { DistCatalog } from '../catalog/dist.ts';
import type { LiveData } from '../catalog/live.ts';
import type { Reviews } from '../feedback/reviews.ts';
import type { Observations } from '../state/observations.ts';

/** LiveData over recorded attempts and reviews, for the catalog routes; `catalog` maps endpoints to platforms for calls_30d. */
export function liveData(observations: Observations, reviews: Reviews, catalog: DistCatalog): LiveData {
  const platformOf = new Map<string, string | null>();
  const platform = (id: string) => {
    // a routed call's own sample (svc.<capability>) is not a provider call: its attempts count already
    if (!platformOf.has(id)) {
      const endpoint = catalog.entry(id)?.endpoint;
      platformOf.set(id, endpoint && endpoint.kind !== 'routed' ? endpoint.platform : null);
    }
    return platformOf.get(id)!;
  };
  let counted = { version: -1, byPlatform: new Map<string, number>() };
  return {
    observed: (id) => observations.observed(id),
    measured: (id) => observations.has(id),
    reviews: (id) => reviews.summary(id),
    calls30d(slug) {
      const v = observations.version();
      if (counted.version !== v) {
        const byPlatform = new Map<string, number>();
        for (const [id, n] of observations.calls30d()) {
          const p = platform(id);
          if (p) byPlatform.set(p, (byPlatform.get(p) ?? 0) + n);
        }
        counted = { version: v, byPlatform };
      }
      return counted.byPlatform.get(slug) ?? 0;
    },
    version: () => observations.version() + reviews.version(),
    reviewsVersion: () => reviews.version(),
  };
}
