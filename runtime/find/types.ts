// What a judge of GET /catalog/find sees and says.
import type { JobReading } from './read-job.ts';

export interface Candidate {
  endpoint_id: string;
  capability: string;
  name: string;
  provider: string;
  kind: string;
  usd: number | null;
  /** what `usd` is charged per, as the operation's entry says ('hit' for a routed entry, 'search', 'post') */
  unit?: string;
  score: number;
  /** a hub tool's (kind tool): the capabilities its steps use, in order */
  capabilities?: string[];
}

/** the job as written, and as read against the catalog's vocabularies and contracts */
export interface Job {
  q: string;
  reading: JobReading;
}

export interface Judgement {
  kept: Array<{ endpoint_id: string; why: string }>;
  verdict: string;
}

/** Decides which candidates really do the described job. May take time; may never answer. */
export type Judge = (job: Job, candidates: Candidate[], signal: AbortSignal) => Promise<Judgement>;
