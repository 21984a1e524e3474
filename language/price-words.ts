// How far a price can be trusted, in the words the dashboard and the CLI print beside it.
import type { CostOut } from './dist-types.ts';

/** Whether a price's currency is the dollar itself (the catalog writes USD or usd), so no rate converts it. */
export function inDollars(currency: string): boolean {
  return currency.toUpperCase() === 'USD';
}

/** `documented`, `third-party (by …)` or `estimated`, and whether the dollar rate of a credit is stated or assumed. */
export function priceTrust(c: CostOut): string {
  const who = c.source === 'third_party' ? `third-party${c.evidence?.by ? ` (by ${c.evidence.by})` : ''}` : c.source;
  const rate = inDollars(c.currency) || c.type === 'free' || c.source === 'estimated' ? '' : c.usd_evidence ? ', dollar rate stated' : ', dollar rate assumed';
  return `${who}${rate}${c.conflict.length ? `, ${c.conflict.length} conflicting source${c.conflict.length > 1 ? 's' : ''}` : ''}`;
}
