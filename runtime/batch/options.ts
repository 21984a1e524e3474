// The batch's own headers, beside the route headers that apply to every row. Bad values are a 422
// naming the header, as for the route headers.
import { invalid } from '../util/fail.ts';
import { parseUsdCeiling } from '../state/money.ts';
import { parseWholeNumber } from '../util/decimal.ts';
import { unknownHeaderCheck, type HeaderReader } from '../router/options.ts';

export const DEFAULT_CONCURRENCY = 8;
export const MAX_CONCURRENCY = 32;

export interface BatchLimits {
  /** X-Svc-Batch-Max-Cost in micro-USD; null: only the balance and each row's own ceiling bound it */
  maxCostMicro: number | null;
  concurrency: number;
}

const bad = (header: string, msg: string): never => invalid([{ loc: ['header', header], msg, type: 'value_error' }]);

// a misspelt one (X-Svc-Batch-Max-Costs: 0) would run the batch without the budget meant
const refuseUnknown = unknownHeaderCheck('batch', ['X-Svc-Batch-Max-Cost', 'X-Svc-Batch-Concurrency']);

export function parseBatchLimits(headers: HeaderReader): BatchLimits {
  refuseUnknown(headers);
  const cost = headers.get('x-svc-batch-max-cost');
  let maxCostMicro: number | null = null;
  if (cost !== null) {
    maxCostMicro = parseUsdCeiling(cost);
    if (maxCostMicro === null) bad('X-Svc-Batch-Max-Cost', 'X-Svc-Batch-Max-Cost must be a non-negative USD amount such as 5.00, at most 9007199254 USD.');
  }
  const c = headers.get('x-svc-batch-concurrency');
  const concurrency = c === null ? DEFAULT_CONCURRENCY : parseWholeNumber(c);
  if (concurrency === null || concurrency < 1 || concurrency > MAX_CONCURRENCY) {
    return bad('X-Svc-Batch-Concurrency', `X-Svc-Batch-Concurrency must be a whole number from 1 to ${MAX_CONCURRENCY}, in decimal digits.`);
  }
  return { maxCostMicro, concurrency };
}
