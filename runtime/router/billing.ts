// What one answered attempt costs, by the operation's billing rule (integer micro-USD, 0% markup).
// The routed waterfall and the pass-through both charge through this; errors never cost.
import type { OperationRuntime } from '../../build/types.ts';
import { billableRows, billsMiss, resultUnits } from './plan.ts';

export function chargeMicro(op: Pick<OperationRuntime, 'cost' | 'price_micro' | 'bills_miss'>, outcome: 'hit' | 'miss' | 'error', rows: number): number {
  if (!op.cost || op.cost.type === 'free' || outcome === 'error') return 0;
  const perResult = op.cost.type === 'per_result';
  if (outcome === 'hit') return op.price_micro * (perResult ? resultUnits(op.cost, rows) : 1);
  // a miss has no rows: a billed per_result miss pays its minimum units (cost.min_units)
  return billsMiss(op) ? op.price_micro * (perResult ? resultUnits(op.cost, 0) : 1) : 0;
}

/** A routed attempt's charge: a per_result hit bills at most the rows it was planned for, so the charge stays within its worst case. */
export function attemptChargeMicro(op: Parameters<typeof chargeMicro>[0] & Parameters<typeof billableRows>[0], outcome: 'hit' | 'miss' | 'error', rows: number, limit: number): number {
  return chargeMicro(op, outcome, outcome === 'hit' ? Math.min(rows, billableRows(op, limit)) : 0);
}
