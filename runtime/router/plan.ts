// The pure planner: which children a call may try, in which order, with which key, at what worst
// cost, and why the others are left out. The same function answers dry runs and drives live calls.
import type { CapabilitySrc, CostOut, CostType, Observed, OperationRuntime } from '../../build/types.ts';
import type { RouteOptions } from './options.ts';
import { usdPerHit } from './expected-cost.ts';
import { present } from './prepare.ts';

export type ExcludeReason = 'no_identity' | 'excluded' | 'no_key' | 'over_ceiling' | 'strict_filter' | 'circuit_open';

export interface PlannedAttempt {
  endpoint_id: string;
  provider: string;
  key: 'own' | 'platform';
  worst_cost_micro: number;
  /** whether a miss of this child is charged: such children go after those whose misses are free */
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
  ownKeys: Set<string>;
  teamId: number;
  hasPlatformKey: (provider: string) => boolean;
  observed: (endpointId: string) => Observed | null;
  /** circuits, and own keys set aside after a 401/402/429 */
  health: { circuitOpen(endpointId: string): boolean; ownKeyCooling(teamId: number, provider: string): boolean };
}

type Billed = { cost: { type: CostType } | null; price_micro: number; request?: { map: Array<{ from: string; max?: number }> }; response?: { max_rows?: number } };

/** Whether a miss of this child costs anything: a per-call child that bills a miss, or a per-result one with a billed minimum (cost.min_units). */
export function billsMiss(op: { cost: Pick<CostOut, 'type' | 'min_units'> | null; price_micro: number; bills_miss: boolean }): boolean {
  if (!op.bills_miss || op.price_micro <= 0 || !op.cost) return false;
  return op.cost.type === 'per_call' || (op.cost.type === 'per_result' && (op.cost.min_units ?? 0) > 0);
}

/**
 * The most rows one answer of `op` is billed for in a call asking `limit` rows: the limit as the
 * child's request sends it (clamped by its mapping's max), else the page size it declares
 * (response.max_rows). The router never bills more rows than this, so a charge stays within the
 * worst case it planned and reserved, even when a provider answers more rows than asked.
 */
export function billableRows(op: Billed, limit: number): number {
  const sent = op.request?.map.find((m) => m.from === 'limit');
  const declared = op.response?.max_rows ?? Infinity;
  if (!sent) return Number.isFinite(declared) ? declared : limit;
  return Math.min(limit, sent.max ?? limit, declared);
}

/** Units a per_result answer of `rows` rows is billed: whole blocks of rows_per_unit (a started block counts), never fewer than min_units. */
export function resultUnits(cost: Pick<CostOut, 'rows_per_unit' | 'min_units'>, rows: number): number {
  return Math.max(Math.ceil(rows / (cost.rows_per_unit ?? 1)), cost.min_units ?? 0);
}

/** Worst-case charge of one attempt: per_result bills the units of every billable row. Also the list price per hit. */
export function worstCostMicro(op: Billed & { cost: Pick<CostOut, 'type' | 'rows_per_unit' | 'min_units'> | null }, limit: number): number {
  if (!op.cost || op.cost.type === 'free') return 0;
  return op.price_micro * (op.cost.type === 'per_result' ? resultUnits(op.cost, billableRows(op, limit)) : 1);
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
    else attempts.push({ endpoint_id: id, provider: op.provider, key: own ? 'own' : 'platform', worst_cost_micro: worst, bills_miss: billsMiss(op), expected_micro: usdPerHit(worst, input.observed(id)) ?? Infinity });
  }
  const { prefer } = options;
  if (attempts.length > 1) attempts.sort((a, b) =>
    Number(b.key === 'own') - Number(a.key === 'own')
    || preferRank(prefer, a.provider) - preferRank(prefer, b.provider)
    || Number(a.bills_miss) - Number(b.bills_miss)
    || a.expected_micro - b.expected_micro
    || a.endpoint_id.localeCompare(b.endpoint_id));
  return { attempts, excluded };
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
