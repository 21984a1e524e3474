// The batch's own headers, beside the route headers that apply to every row. Bad values are a 422
// naming the header, as for the route headers.
import { invalid } from '../errors.ts';
import { parseUsdCeiling } from '../state/money.ts';
import type { HeaderReader } from '../router/options.ts';

export const DEFAULT_CONCURRENCY = 8;
export const MAX_CONCURRENCY = 32;

export interface BatchLimits {
  /** X-Svc-Batch-Max-Cost in micro-USD; null: only the balance and each row's own ceiling bound it */
  maxCostMicro: number | null;
  concurrency: number;
}

const bad = (header: string, msg: string): never => invalid([{ loc: ['header', header], msg, type: 'value_error' }]);

const BATCH_HEADERS = ['X-Svc-Batch-Max-Cost', 'X-Svc-Batch-Concurrency'];
const KNOWN = new Set(BATCH_HEADERS.map((h) => h.toLowerCase()));

/**
 * A misspelt batch header would otherwise be ignored and the batch run without the budget the
 * caller meant (X-Svc-Batch-Max-Costs: 0 spending the balance), so every unknown one is named.
 */
function refuseUnknown(headers: HeaderReader): void {
  const unknown = [...headers.keys()].filter((h) => h.startsWith('x-svc-batch-') && !KNOWN.has(h));
  if (unknown.length) invalid(unknown.map((h) => ({ loc: ['header', h], msg: `${h} is not a batch header; they are ${BATCH_HEADERS.join(', ')}.`, type: 'value_error.unknown_header' })));
}

export function parseBatchLimits(headers: HeaderReader): BatchLimits {
  refuseUnknown(headers);
  const cost = headers.get('x-svc-batch-max-cost');
  let maxCostMicro: number | null = null;
  if (cost !== null) {
    maxCostMicro = parseUsdCeiling(cost);
    if (maxCostMicro === null) bad('X-Svc-Batch-Max-Cost', 'X-Svc-Batch-Max-Cost must be a non-negative USD amount such as 5.00, at most 9007199254 USD.');
  }
  const c = headers.get('x-svc-batch-concurrency');
  const concurrency = c === null ? DEFAULT_CONCURRENCY : Number(c);
  if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > MAX_CONCURRENCY) {
    bad('X-Svc-Batch-Concurrency', `X-Svc-Batch-Concurrency must be a whole number from 1 to ${MAX_CONCURRENCY}.`);
  }
  return { maxCostMicro, concurrency };
}
