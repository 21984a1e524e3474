// Feedback and reviews over a state's atomics, opened once per process: the review summaries the
// catalog reads are loaded first, and on storage shared by several instances, kept up with theirs;
// records the last release stored without a team index are indexed (idempotent), at the start and,
// on shared storage, as an instance of the last release goes on storing them (a rolling upgrade).
import type { State } from '../state/index.ts';
import { FeedbackStore } from './feedback.ts';
import { Reviews } from './reviews.ts';

export interface Feedback {
  feedback: FeedbackStore;
  reviews: Reviews;
}

/** how often an instance on shared storage reads what the others stored */
const FOLLOW_MS = 2000;

export async function openFeedback(state: State): Promise<Feedback> {
  const reviews = new Reviews(state.atomics);
  await reviews.catchUp(); // indexes every review it loads, the last release's included
  const feedback = new FeedbackStore(state.atomics);
  await feedback.indexAll();
  if (state.kind === 'redis') {
    // the one backend several instances share; storage away: next round
    setInterval(() => void Promise.all([reviews.catchUp(), feedback.catchUp()]).catch(() => {}), FOLLOW_MS).unref();
  }
  return { feedback, reviews };
}
