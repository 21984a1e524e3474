// What each child would have billed, counted per endpoint id. Written apart from the router's rule
// (language/prices.ts) on purpose: the ledger reconciliation tests one against the other. The build
// refuses bills_miss on per_success and free children, the only cases where the two could read it apart.
import type { OperationRuntime } from '../language/types.ts';
import type { BillingCounts, Charge } from './types.ts';

export type Outcome = 'hit' | 'miss';

/** Billed units of a per_result answer: rows counted in blocks (a started block is a whole one), at least the minimum. */
function unitsOf(cost: NonNullable<OperationRuntime['cost']>, rows: number): number {
  const block = cost.rows_per_unit ?? 1;
  const blocks = Math.floor((rows + block - 1) / block);
  return blocks < (cost.min_units ?? 0) ? cost.min_units! : blocks;
}

/** The charge of one answered call, or null when the provider would not bill it. */
export function chargeFor(op: OperationRuntime, outcome: Outcome, rows: number): Charge | null {
  const type = op.cost?.type ?? 'free';
  if (outcome === 'miss' && (type === 'per_success' || type === 'free' || !op.bills_miss)) return null;
  const micro = type === 'free' ? 0 : type === 'per_result' ? op.price_micro * unitsOf(op.cost!, rows) : op.price_micro;
  return { endpoint_id: op.endpoint_id, micro };
}

export class BillingBook {
  private counts: BillingCounts = {};

  add(charge: Charge | undefined): void {
    if (!charge) return;
    const row = (this.counts[charge.endpoint_id] ??= { calls: 0, billed_micro: 0 });
    row.calls += 1;
    row.billed_micro += charge.micro;
  }

  snapshot(): BillingCounts {
    return structuredClone(this.counts);
  }

  clear(): void {
    this.counts = {};
  }
}
