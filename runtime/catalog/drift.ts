// Operations whose providers' answers state charges other than the catalog's price: the list a buyer
// (or whoever keeps the catalog) reads to see which prices the providers themselves contradict.
import type { ChargeDrift, RuntimeCatalog } from '../../language/types.ts';
import type { LiveData } from './live.ts';

export interface DriftRow extends ChargeDrift {
  endpoint_id: string;
  /** the catalog's price for one unit, and that unit */
  usd: number | null;
  unit: string;
  /** the unit the provider states its charge in */
  reported_in: string;
  /** differed ÷ reports */
  share_differed: number;
}

export interface DriftReport {
  /** operations whose reports differed from their price, the most often differing first */
  operations: DriftRow[];
  /** operations whose provider states its charge (cost.reported_charge) */
  watched: number;
  /** of them, how many have reported since the runtime's observations began */
  reporting: number;
  hints: string[];
}

export function driftReport(runtime: RuntimeCatalog, live: LiveData): DriftReport {
  const watched = Object.values(runtime.operations).filter((op) => op.cost?.reported_charge);
  let reporting = 0;
  const operations: DriftRow[] = [];
  for (const op of watched) {
    const charges = live.observed(op.endpoint_id)?.charges;
    if (!charges) continue;
    reporting++;
    if (!charges.differed) continue;
    operations.push({
      endpoint_id: op.endpoint_id,
      usd: op.cost!.usd,
      unit: op.cost!.unit,
      reported_in: op.cost!.reported_charge!.unit,
      ...charges,
      share_differed: Math.round((charges.differed / charges.reports) * 1000) / 1000,
    });
  }
  operations.sort((a, b) => b.share_differed - a.share_differed || b.reports - a.reports || a.endpoint_id.localeCompare(b.endpoint_id));
  const hints = operations.length
    ? [`GET /catalog/endpoints/${operations[0].endpoint_id}: its observed.charges and its cost block side by side`]
    : [`No report has differed from its list price (${reporting} of ${watched.length} operations that state their charge have reported).`];
  return { operations, watched: watched.length, reporting, hints };
}
