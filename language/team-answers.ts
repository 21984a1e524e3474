// What the signed-in team's own endpoints (GET /teams/me and below) answer, declared once for the
// two clients that read them, `svc me`/`svc team` and the dashboard's account pages (and, for the
// token view, for the runtime's token store that makes it).
import type { ChargeFigures } from './ledger-words.ts';

/** GET /teams/me: never a key itself, only the providers the team brought one for */
export interface TeamAnswer {
  team: string;
  name: string;
  balance_micro: number;
  earnings_micro: number;
  own_keys: string[];
  /** stored keys their provider refused lately, not used until `until` (an ISO time): calls go on the platform key meanwhile */
  own_keys_set_aside: Array<{ provider: string; until: string }>;
}

/** a listing page: its rows under `key`, and the cursor of the next page (null on the last) */
export type Paged<K extends string, T> = Record<K, T[]> & { next_cursor: string | null };

/** a ledger row; a charge whose provider stated what it billed also carries both figures */
export interface LedgerEntry extends ChargeFigures {
  id: string | number;
  at: string;
  kind: string;
  amount_micro: number;
  endpoint_id?: string;
  call_id?: string;
  tool_id?: string;
}

/** GET /teams/me/feedback, newest first */
export interface SentFeedback {
  id: number;
  kind: string;
  message: string;
  endpoint_id?: string;
  capability?: string;
  status: string;
  created_at: string;
}

/** GET /teams/me/reviews, newest first */
export interface SentReview {
  id: number;
  endpoint_id: string;
  usefulness: string;
  reason: string;
  client: string;
  month: string;
  at: string;
}

/** what a listing shows of an API token: never the secret, nor its digest */
export interface TokenView {
  id: string;
  name: string | null;
  created_at: string;
  expires_at: string | null;
  revoked_at: string | null;
  status: 'active' | 'expired' | 'revoked';
}

/** a token as GET …/tokens lists it; `current` marks the one the request (or its dashboard session) came with */
export type ListedToken = TokenView & { current?: boolean };
