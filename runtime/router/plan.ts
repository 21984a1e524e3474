// The pure planner: which children a call may try, in which order, with which key, at what worst
// cost, and why the others are left out. The same function answers dry runs and drives live calls.
import type { CapabilitySrc, Observed, OperationRuntime } from '../../language/types.ts';
import type { RouteOptions } from './options.ts';
import { usdPerHit } from './expected-cost.ts';
import { present } from '../../language/prepare-call.ts';
import { missMayCost, worstCostMicro } from '../../language/prices.ts';

export type ExcludeReason = 'no_identity' | 'excluded' | 'no_key' | 'over_ceiling' | 'strict_filter' | 'circuit_open';

export interface PlannedAttempt {
  endpoint_id: string;
  provider: string;
  key: 'own' | 'platform';
  worst_cost_micro: number;
  /** whether a miss of this child may be charged (a contract miss too, where the provider bills it): such children go after those whose misses are free */
  bills_miss: boolean;
  /** expected micro-USD per hit, for ordering */
  expected_micro: number;
}

export interface Plan {
  attempts: PlannedAttempt[];
  excluded: Array<{ endpoint_id: string; reason: ExcludeReason }>;
}

export interface PlanInput {
  capability: CapabilitySrc & { children: string[] };
  operations: Record<string, OperationRuntime>;
  /** the call's fields after derivation */
  fields: Record<string, unknown>;
  /** filters the caller sent explicitly */
  sentFilters: string[];
  limit: number;
  options: RouteOptions;
  ownKeys: ReadonlySet<string>;
  teamId: number;
  hasPlatformKey: (provider: string) => boolean;
  observed: (endpointId: string) => Observed | null;
  /** circuits, and own keys set aside after a 401/402/429 */
  health: { circuitOpen(endpointId: string): boolean; ownKeyCooling(teamId: number, provider: string): boolean };
}

export function plan(input: PlanInput): Plan {
  const { capability, operations, options } = input;
  const attempts: PlannedAttempt[] = [];
  const excluded: Plan['excluded'] = [];
  for (const id of capability.children) {
    const op = operations[id];
    const own = input.ownKeys.has(op.provider) && !input.health.ownKeyCooling(input.teamId, op.provider);
    const worst = worstCostMicro(op, input.limit);
    const reason = leftOutFor(input, id, op, own, worst);
    if (reason) excluded.push({ endpoint_id: id, reason });
    else attempts.push({ endpoint_id: id, provider: op.provider, key: own ? 'own' : 'platform', worst_cost_micro: worst, bills_miss: missMayCost(op), expected_micro: usdPerHit(worst, input.observed(id)) ?? Infinity });
  }
  inOrder(attempts, options.prefer);
  return { attempts, excluded };
}

/**
 * Sorted in place by insertion, stable as Array.prototype.sort is: a plan has a handful of attempts,
 * for which sort() makes its work state and copy on every call (about 870 bytes at two attempts).
 */
function inOrder(attempts: PlannedAttempt[], prefer: string[]): void {
  for (let i = 1; i < attempts.length; i++) {
    const a = attempts[i];
    let j = i - 1;
    for (; j >= 0 && before(prefer, attempts[j], a) > 0; j--) attempts[j + 1] = attempts[j];
    attempts[j + 1] = a;
  }
}

/** own keys first, then the caller's preference, then free misses, then the cheapest per hit */
function before(prefer: string[], a: PlannedAttempt, b: PlannedAttempt): number {
  return Number(b.key === 'own') - Number(a.key === 'own')
    || preferRank(prefer, a.provider) - preferRank(prefer, b.provider)
    || Number(a.bills_miss) - Number(b.bills_miss)
    || a.expected_micro - b.expected_micro
    || a.endpoint_id.localeCompare(b.endpoint_id);
}

/**
 * The least the first attempt a call makes may count against its ceiling: the cheapest planned
 * attempt's worst case (0 when nothing is planned, as nothing will be spent). The 402 sentence and a
 * batch row's budget both start from it.
 */
export function cheapestAttemptMicro(attempts: ReadonlyArray<Pick<PlannedAttempt, 'worst_cost_micro'>>): number {
  let least = attempts.length ? Infinity : 0;
  for (const a of attempts) if (a.worst_cost_micro < least) least = a.worst_cost_micro;
  return least;
}

// Module-level helpers rather than closures made per call: tsx names every named closure as it is
// made (keepNames), about 0.4 µs each, and the planner runs for every child of every call.

/** why a child cannot run in this call, checked in this order; null when it can */
function leftOutFor(input: PlanInput, id: string, op: OperationRuntime, own: boolean, worst: number): ExcludeReason | null {
  const { fields, options } = input;
  if (!(op.accepts ?? []).some((set) => set.every((f) => present(fields[f])))) return 'no_identity';
  if (options.exclude.includes(op.provider)) return 'excluded';
  if (!own && !(op.platform_eligible && input.hasPlatformKey(op.provider))) return 'no_key';
  if (options.strictFilters && (op.request?.ignores ?? []).some((f) => input.sentFilters.includes(f))) return 'strict_filter';
  if (input.health.circuitOpen(id)) return 'circuit_open';
  if (worst > options.maxCostMicro) return 'over_ceiling';
  return null;
}

function preferRank(prefer: string[], provider: string): number {
  const i = prefer.indexOf(provider);
  return i < 0 ? prefer.length : i;
}
