// Feedback and reviews over a state's atomics, opened once per process: the review summaries the
// catalog reads are loaded first, and on storage shared by several instances, kept up with theirs;
// records the last release stored without a team index are indexed (idempotent).
import type { State } from '../state/index.ts';
import { FeedbackStore } from './feedback.ts';
import { Reviews } from './reviews.ts';

export interface Feedback {
  feedback: FeedbackStore;
  reviews: Reviews;
}

export async function openFeedback(state: State): Promise<Feedback> {
  const reviews = new Reviews(state.atomics);
  await reviews.catchUp();
  if (state.kind === 'redis') reviews.follow(); // the one backend several instances share
  const feedback = new FeedbackStore(state.atomics);
  await feedback.indexAll();
  await reviews.indexAll();
  return { feedback, reviews };
}
