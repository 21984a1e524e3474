// A routed entry's live plan: price per hit divided by a measured hit rate, in whole micro-USD.
import { describe, expect, it } from 'vitest';
import type { CatalogEntry, Observed } from '../../language/types.ts';
import { withLive } from '../../runtime/catalog/live-entry.ts';
import type { LiveData } from '../../runtime/catalog/live.ts';

const observed: Observed = { samples: 30, decided: 30, ok_rate: 1, p50_ms: 10, p95_ms: 20, last_ok_days: 0, hit_rate: 0.3, hit_samples: 30 };
// withLive reads only these two of the live data
const live = { observed: () => observed, reviews: () => undefined } as unknown as LiveData;

describe('withLive', () => {
  it('rounds usd_per_hit to whole micro-USD', () => {
    const entry = {
      endpoint: { id: 'svc.x', observed: null },
      siblings: [],
      routing: { plan: [{ endpoint_id: 'a.x', accepts: [], usd: 0.002, hit_rate: null, usd_per_hit: 0.002, works: true }] },
    } as unknown as CatalogEntry;
    const row = withLive(entry, live).routing!.plan[0];
    expect(row.hit_rate).toBe(0.3);
    expect(row.usd_per_hit).toBe(0.006667);
  });
});
