// What a routed call is made of and comes to: the router's dependencies, the call, each attempt's
// line in `tried`, and the outcome, with the helpers that end a call the same way wherever it stops.
import type { CapabilitySrc, Observed, RuntimeCatalog } from '../../language/types.ts';
import type { Env } from '../../language/provider-auth.ts';
import type { ReportedCharge } from '../../language/reported-charge.ts';
import type { State, Team } from '../state/index.ts';
import type { Spending } from '../money/spending.ts';
import type { Plan } from './plan.ts';
import type { Health } from './health.ts';
import type { RouteOptions } from './options.ts';

export interface RouterDeps {
  runtime: RuntimeCatalog;
  env: Env;
  state: State;
  health: Health;
  spending: Spending;
  observed: (endpointId: string) => Observed | null;
  /** whether svc holds a platform key for a provider (made once per router) */
  hasPlatformKey: (provider: string) => boolean;
  attemptTimeoutMs: number;
  /** the largest provider answer read (SVC_MAX_ANSWER_BYTES); a larger one is an error */
  maxAnswerBytes: number;
  pollIntervalMaxMs: number | null;
}

export interface Tried {
  endpoint_id: string;
  outcome: 'hit' | 'miss' | 'error' | 'skipped';
  reason?: string;
  status?: number;
  ms: number;
  cost_micro: number;
  /** 'own' on an attempt made with the team's own key: its cost_micro counts in the call's, but the provider bills the team, not the balance */
  key?: 'own';
  /** where the provider's answer stated its charge: the catalog's price for the attempt, beside `reported` */
  list_micro?: number;
  /** the provider's own figure (cost.reported_charge), which cost_micro follows */
  reported?: ReportedCharge;
  /** the reported figure passed what the call's ceiling left for this attempt: billed this, no more */
  cap_micro?: number;
}

export interface Verification {
  verdict: 'valid' | 'invalid' | 'unknown';
  checked: unknown;
  served_by: string | null;
  cost_micro: number;
}

export interface RouteOutcome {
  /** `broke`: the balance is below the cheapest attempt; `held`: the team's calls in flight hold what every attempt needed */
  kind: 'hit' | 'miss' | 'error' | 'unfillable' | 'strict' | 'broke' | 'held' | 'dry_run';
  output: Readonly<Record<string, unknown>>;
  /** the serving child's answer as JSON text, key redacted ('null' when there is none) */
  raw: string;
  served_by: string | null;
  tried: Tried[];
  cost_micro: number;
  stopped?: 'max_cost' | 'deadline' | 'balance' | 'no_eligible_child' | 'final_miss' | 'storage' | 'caller_gone';
  verification?: Verification;
  ignored_filters: string[];
  plan: Plan;
  /** the cheapest attempt's worst charge to the balance (for `held`, of those skipped for it), and the balance, for the 402 sentence */
  needed_micro?: number;
  balance_micro?: number;
  /** a dry run: the call's ceiling, which bounds what the plan sums to */
  ceiling_micro?: number;
  /** a dry run with verification on: what each verification may cost at worst */
  verifier?: { capability: string; worst_cost_micro: number };
  /** a dry run: the team's stored keys for the capability's providers that are set aside now, each with when it is tried again */
  own_keys_set_aside?: Array<{ provider: string; until: string }>;
}

export interface RouteCall {
  team: Team;
  capability: string;
  body: Record<string, unknown>;
  options: RouteOptions;
  callId: string;
  /** every caller waiting for this call has gone: no further attempt starts */
  gone: Gone;
}

/** true once the client that sent a call has gone: nobody will read its answer */
export type Gone = () => boolean;

export type Cap = CapabilitySrc & { children: string[] };

export const skipped = (endpoint_id: string, reason: string): Tried => ({ endpoint_id, outcome: 'skipped', reason, ms: 0, cost_micro: 0 });

/** Children the plan left out for the ceiling or an open circuit: attempts in all but name. */
function skippedByPlan(p: Plan): Tried[] | null {
  let skips: Tried[] | null = null;
  for (const e of p.excluded) if (e.reason === 'over_ceiling' || e.reason === 'circuit_open') (skips ??= []).push(skipped(e.endpoint_id, e.reason));
  return skips;
}

/** what a skip's reason makes of a call that ran no child, the first found in this order */
const STOPS = [
  ['over_ceiling', 'max_cost'],
  ['deadline', 'deadline'],
  ['balance', 'balance'],
  ['caller_gone', 'caller_gone'],
] as const;

/** Why a call that ran no child stopped, from what its attempts were skipped for. */
export function stoppedBy(tried: Tried[]): RouteOutcome['stopped'] {
  const reasons = new Set(tried.map((t) => t.reason));
  return STOPS.find(([reason]) => reasons.has(reason))?.[1] ?? 'no_eligible_child';
}

export type Ending = Partial<Pick<RouteOutcome, 'output' | 'raw' | 'served_by' | 'ignored_filters' | 'stopped' | 'verification'>>;

/**
 * Every way a call ends: the attempts, plus the children the plan skipped for the ceiling or a
 * circuit. A module function, not a closure per call (tsx names each closure as it is made).
 */
export function finished(
  base: Omit<RouteOutcome, 'kind'>,
  tried: Tried[],
  spent: number,
  kind: 'hit' | 'miss' | 'error',
  extra: Ending | null = null,
): RouteOutcome {
  const skips = skippedByPlan(base.plan);
  // Built field by field: spreading objects of varying shapes was a hot spot under load.
  return {
    kind,
    output: extra?.output ?? base.output,
    raw: extra?.raw ?? base.raw,
    served_by: extra?.served_by ?? null,
    tried: skips ? tried.concat(skips) : tried,
    cost_micro: spent,
    ignored_filters: extra?.ignored_filters ?? base.ignored_filters,
    plan: base.plan,
    stopped: extra?.stopped,
    verification: extra?.verification,
  };
}
