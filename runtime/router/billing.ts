// What one answered attempt costs, by the operation's billing rule (integer micro-USD, 0% markup).
// The routed waterfall and the pass-through both charge through this; errors never cost.
import type { CostOut, OperationRuntime } from '../../build/types.ts';

/** What a worst case reads of an operation: its billing rule, unit price and page size. */
export type Billed = { cost: Pick<CostOut, 'type' | 'rows_per_unit' | 'min_units'> | null; price_micro: number; request?: { map: Array<{ from: string; max?: number }> }; response?: { max_rows?: number } };

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

/** Units a per_result answer of `rows` rows is billed: whole blocks of rows_per_unit (a part block counts), never fewer than min_units. */
export function resultUnits(cost: Pick<CostOut, 'rows_per_unit' | 'min_units'>, rows: number): number {
  return Math.max(Math.ceil(rows / (cost.rows_per_unit ?? 1)), cost.min_units ?? 0);
}

export function chargeMicro(op: Pick<OperationRuntime, 'cost' | 'price_micro' | 'bills_miss'>, outcome: 'hit' | 'miss' | 'error', rows: number): number {
  if (!op.cost || op.cost.type === 'free' || outcome === 'error') return 0;
  if (op.cost.type === 'per_result') {
    // a miss has no rows; a billed one pays the minimum units only
    if (outcome === 'miss' && !op.bills_miss) return 0;
    return op.price_micro * resultUnits(op.cost, outcome === 'hit' ? rows : 0);
  }
  return outcome === 'hit' || op.bills_miss ? op.price_micro : 0;
}

/** A routed attempt's charge: a per_result hit bills at most the rows it was planned for, so the charge stays within its worst case. */
export function attemptChargeMicro(op: Parameters<typeof chargeMicro>[0] & Billed, outcome: 'hit' | 'miss' | 'error', rows: number, limit: number): number {
  return chargeMicro(op, outcome, outcome === 'hit' ? Math.min(rows, billableRows(op, limit)) : 0);
}
