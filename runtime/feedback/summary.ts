// The review summary of one endpoint, as the catalog shows it: how many teams reviewed it, the
// latest 5 reviews, and each verdict's share among the teams' latest reviews.
import type { ReviewSummary } from '../../language/types.ts';
import type { USEFULNESS } from './kinds.ts';

export type Usefulness = (typeof USEFULNESS)[number];
export const SAMPLES = 5;

export interface StoredReview {
  /** from the review counter: a later review has a larger id */
  id: number;
  team_id: number;
  usefulness: Usefulness;
  reason: string;
  client: string;
  /** YYYY-MM, UTC */
  month: string;
  at: string;
}

/** undefined when there is no review (the catalog then shows no `reviews` key) */
export function summarise(reviews: StoredReview[]): ReviewSummary | undefined {
  if (!reviews.length) return undefined;
  const newest = [...reviews].sort((a, b) => b.id - a.id);
  // one vote per team: its latest review, whatever the month
  const votes = new Map<number, Usefulness>();
  for (const r of newest) if (!votes.has(r.team_id)) votes.set(r.team_id, r.usefulness);
  const count: Record<Usefulness, number> = { useful: 0, partly: 0, not_useful: 0 };
  for (const u of votes.values()) count[u]++;
  const share = (u: Usefulness) => Math.round((count[u] / votes.size) * 1000) / 1000;
  return {
    teams: votes.size,
    samples: newest.slice(0, SAMPLES).map(({ usefulness, reason, client, month }) => ({ usefulness, reason, client, month })),
    share: { useful: share('useful'), partly: share('partly'), not_useful: share('not_useful') },
  };
}
