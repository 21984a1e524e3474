// What catalog reads take from runtime state: measured behaviour, reviews and traffic. The catalog
// routes depend only on this interface; the context composes it (runtime/context/live-data.ts).
import type { Observed, ReviewSummary } from '../../language/types.ts';

export interface LiveData {
  observed(endpointId: string): Observed | null;
  /** whether the endpoint has any observation: what search ranks by, without building a summary */
  measured(endpointId: string): boolean;
  reviews(endpointId: string): ReviewSummary | undefined;
  calls30d(platform: string): number;
  /** bumps whenever any of the above may have changed, so serialised entries can be cached */
  version(): number;
  /**
   * bumps whenever a review summary may have changed; cached entries never outlive it, so a team
   * reads its own review at once
   */
  reviewsVersion(): number;
}
