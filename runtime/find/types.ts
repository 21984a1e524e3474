// What a judge of GET /catalog/find sees and says.
export interface Candidate {
  endpoint_id: string;
  capability: string;
  name: string;
  provider: string;
  usd: number | null;
  score: number;
}

export interface Judgement {
  kept: Array<{ endpoint_id: string; why: string }>;
  verdict: string;
}

/** Decides which candidates really do the described job. May take time; may never answer. */
export type Judge = (q: string, candidates: Candidate[], signal: AbortSignal) => Promise<Judgement>;
