// Hit, miss or error for one child answer: the child's own miss form (status, body condition), then
// the contract's miss condition on the mapped output. Errors are never misses.
import type { CapabilitySrc, OperationRuntime } from '../../language/types.ts';
import type { ChargedOutcome } from '../../language/prices.ts';
import { countRows, isContractMiss, mapOutput, missWhen } from '../../language/map-response.ts';
import type { ChildAnswer } from './http.ts';

export type Verdict =
  | { outcome: 'hit'; output: Record<string, unknown>; rows: number }
  /** contract: the provider answered, and only the capability's contract calls it a miss */
  | { outcome: 'miss'; reason: string; contract?: true }
  | { outcome: 'error'; reason: string };

/** Statuses that speak about the key, not the subject: an own key answering these is set aside. */
export const KEY_TROUBLE = new Set([401, 402, 403, 429]);

/** Status-level decision, before any body is read: a miss, an error, or null to read on. */
export function classifyStatus(op: OperationRuntime, answer: ChildAnswer): Exclude<Verdict, { outcome: 'hit' }> | null {
  if (answer.failure) return { outcome: 'error', reason: answer.failure };
  if (op.miss?.status?.includes(answer.status)) return { outcome: 'miss', reason: `status ${answer.status}` };
  if (answer.status >= 300 || answer.status < 200) return { outcome: 'error', reason: `status ${answer.status}` };
  if (answer.body === undefined) return { outcome: 'error', reason: 'unparsable body' };
  return null;
}

/** Decide on the final record (the body for a sync child, the poll result for an async one); like
 * the response paths, the miss conditions are read from that record. */
export function classifyRecord(cap: CapabilitySrc, op: OperationRuntime, record: unknown): Verdict {
  if (missWhen(op.miss, record)) return { outcome: 'miss', reason: 'provider said not found' };
  const output = mapOutput(cap, op.response!, record);
  if (isContractMiss(cap, output)) return { outcome: 'miss', reason: 'empty result', contract: true };
  return { outcome: 'hit', output, rows: countRows(cap, op.response!, record, output) };
}

/** The outcome a verdict is charged as: a contract miss apart from the provider's own (bills_contract_miss). */
export function chargedAs(v: Verdict): ChargedOutcome {
  return v.outcome === 'miss' && v.contract ? 'contract_miss' : v.outcome;
}
