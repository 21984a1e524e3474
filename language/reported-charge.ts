// What a provider says it charged (cost.reported_charge: where its answer states it, and in which
// unit), converted to micro-USD at the catalog's own price per unit, and the charge an attempt is
// billed from it. Shared by the router (which bills it) and the sandbox (which reports it), so both
// convert the same way and the ledger reconciles with what the sandbox says it billed.
import type { CostOut } from './types.ts';
import { getPath } from './json-path.ts';

type Reporting = { cost: Pick<CostOut, 'value' | 'per' | 'reported_charge'> | null; price_micro: number };

export interface ReportedCharge {
  /** the figure as the provider's answer states it */
  value: number;
  /** its unit, as the catalog names it (credits, searches, usd) */
  unit: string;
  /** the figure in micro-USD at the catalog's price per unit */
  micro: number;
}

/**
 * Micro-USD for one reported unit: a USD report is USD; anything else is the operation's own
 * currency (credits, searches), priced as the catalog prices it (usd for `value` units per `per`).
 */
export function microPerReportedUnit(op: Reporting): number {
  const cost = op.cost!;
  if (cost.reported_charge!.unit.toLowerCase() === 'usd') return 1_000_000;
  return (op.price_micro * cost.per) / cost.value;
}

/** A provider's answer as the charge is read from it: the parsed JSON body, and the response headers by lower-case name. */
export interface ReportingAnswer {
  body: unknown;
  headers?: Readonly<Record<string, string | string[] | undefined>>;
}

/**
 * The provider's reported charge in an answer (at its body path, or in its header), or null where
 * the answer states none, or not one number ≥ 0 (a header sent twice states no one figure).
 */
export function readReported(op: Reporting, answer: ReportingAnswer): ReportedCharge | null {
  const rc = op.cost?.reported_charge;
  if (!rc) return null;
  const raw = rc.header !== undefined ? answer.headers?.[rc.header] : getPath(answer.body, rc.path!);
  const value = typeof raw === 'number' ? raw : typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : NaN;
  if (!Number.isFinite(value) || value < 0) return null;
  const micro = Math.round(value * microPerReportedUnit(op));
  // past a double's range in micro-USD it is no figure (and a ledger row cannot hold Infinity as JSON)
  return Number.isFinite(micro) ? { value, unit: rc.unit, micro } : null;
}

/** Reported units for a charge of `micro` (the sandbox's report of what it bills). */
export const reportedUnits = (op: Reporting, micro: number): number => micro / microPerReportedUnit(op);

export interface ChargeDecision {
  /** what the attempt is billed */
  micro: number;
  /** the catalog's price for the attempt */
  list_micro: number;
  /** the provider's own figure, when its answer stated one */
  reported?: ReportedCharge;
  /** set when the figure billed (reported, or a pass-through's rows past those asked) passed what the call's ceiling left for the attempt: the bill stops there */
  cap_micro?: number;
}

/**
 * An answered attempt's charge: the provider's reported figure where its answer states one (the
 * caller pays what the provider charged, 0% markup), else the list price; never more than
 * `capMicro` (what the ceiling left when the attempt was planned). A routed child's list price
 * never passes it (its worst case was planned within it); a pass-through answer of more rows than
 * asked may, and stops there like a report.
 */
export function decideCharge(op: Reporting, listMicro: number, answer: ReportingAnswer, capMicro: number): ChargeDecision {
  const reported = readReported(op, answer) ?? undefined;
  const figure = reported?.micro ?? listMicro;
  const decided: ChargeDecision = { micro: figure, list_micro: listMicro, ...(reported && { reported }) };
  return figure > capMicro ? { ...decided, micro: Math.max(0, capMicro), cap_micro: Math.max(0, capMicro) } : decided;
}

/** A decision's figures as a ledger entry keeps them (both, where the provider stated its charge; else none). */
export function ledgerFigures(
  d: ChargeDecision | null,
): { list_micro: number; reported_micro: number; reported_value: number; reported_unit: string } | undefined {
  if (!d?.reported) return undefined;
  return { list_micro: d.list_micro, reported_micro: d.reported.micro, reported_value: d.reported.value, reported_unit: d.reported.unit };
}
