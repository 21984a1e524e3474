// Prices as the catalog states them: what one answered attempt costs, by the operation's billing rule (integer micro-USD, 0% markup).
// The routed waterfall and the pass-through both charge through this; errors never cost. A worst case
// (worstCostMicro) is a hit's, which is never less than what a billed miss or contract miss pays.
import type { CostOut, CostType, OperationRuntime } from './types.ts';

/** what a routed entry's price is per: a call that found what it asked for, whichever child served */
export const ROUTED_UNIT = 'hit';

type Billed = {
  cost: { type: CostType } | null;
  price_micro: number;
  request?: { map: Array<{ from: string; max?: number }> };
  response?: { max_rows?: number };
};

type MissBilling = { cost: Pick<CostOut, 'type' | 'min_units'> | null; price_micro: number; bills_miss: boolean; bills_contract_miss?: boolean };

/** An outcome as it is charged: `contract_miss` is a miss only by the capability's contract, the provider having answered. */
export type ChargedOutcome = 'hit' | 'miss' | 'contract_miss' | 'error';

/** Whether an answer with no rows costs anything: a per-call price, or a per-result minimum (cost.min_units). */
function emptyAnswerCosts(op: MissBilling): boolean {
  if (op.price_micro <= 0 || !op.cost) return false;
  return op.cost.type === 'per_call' || (op.cost.type === 'per_result' && (op.cost.min_units ?? 0) > 0);
}

/** Whether a miss of this child costs anything: a per-call child that bills a miss, or a per-result one with a billed minimum (cost.min_units). */
export function billsMiss(op: MissBilling): boolean {
  return op.bills_miss && emptyAnswerCosts(op);
}

/** Whether a miss of this child may cost: a billed miss, or a contract miss its provider bills as an answered call (bills_contract_miss). The planner orders and bounds by this. */
export function missMayCost(op: MissBilling): boolean {
  return billsMiss(op) || (Boolean(op.bills_contract_miss) && emptyAnswerCosts(op));
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

export function chargeMicro(
  op: Pick<OperationRuntime, 'cost' | 'price_micro' | 'bills_miss' | 'bills_contract_miss'>,
  outcome: ChargedOutcome,
  rows: number,
): number {
  if (!op.cost || op.cost.type === 'free' || outcome === 'error') return 0;
  const perResult = op.cost.type === 'per_result';
  if (outcome === 'hit') return op.price_micro * (perResult ? resultUnits(op.cost, rows) : 1);
  // a miss has no rows: a billed per_result miss pays its minimum units (cost.min_units), and so does
  // a contract miss whose provider bills the answer (bills_contract_miss)
  return (outcome === 'miss' ? billsMiss(op) : missMayCost(op)) ? op.price_micro * (perResult ? resultUnits(op.cost, 0) : 1) : 0;
}

/** A routed attempt's charge: a per_result hit bills at most the rows it was planned for, so the charge stays within its worst case. */
export function attemptChargeMicro(
  op: Parameters<typeof chargeMicro>[0] & Parameters<typeof billableRows>[0],
  outcome: ChargedOutcome,
  rows: number,
  limit: number,
): number {
  return chargeMicro(op, outcome, outcome === 'hit' ? Math.min(rows, billableRows(op, limit)) : 0);
}
