// What catalog reads take from runtime state: measured behaviour, reviews and traffic. The catalog
// routes depend only on this interface; state supplies it (liveData in runtime/state).
import type { Observed, ReviewSummary } from '../build/types.ts';

export interface LiveData {
  observed(endpointId: string): Observed | null;
  reviews(endpointId: string): ReviewSummary | undefined;
  calls30d(platform: string): number;
  /** bumps whenever any of the above may have changed, so serialised entries can be cached */
  version(): number;
}
