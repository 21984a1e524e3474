// How much a pass-through call holds before it runs: a per_result operation may bill every row it
// returns, so the hold is its price for the rows the call may return (the page size it sends, else
// the declared default, else the declared max), worked out by the one billing rule (billing.ts).
import type { OperationRuntime } from '../../language/types.ts';
import { invalid } from '../util/fail.ts';
import { getPath } from '../../language/json-path.ts';
import { chargeMicro } from '../../language/prices.ts';

/** A page size as sent: a count, or a list (or comma/line separated text) whose items are the rows. */
function countOf(value: unknown): number | null {
  if (typeof value === 'number') return Number.isSafeInteger(value) ? value : null;
  if (Array.isArray(value)) return value.length;
  if (typeof value !== 'string') return null;
  if (/^-?\d+$/.test(value.trim())) return Number(value.trim());
  return value.split(/[,\n]/).filter((s) => s.trim()).length;
}

/**
 * Rows a call of a per_result operation may be billed for; 1 for any other operation. 422 when the
 * operation declares neither a default nor a max and the call does not say.
 */
export function rowsAsked(op: OperationRuntime, query: URLSearchParams, body: unknown): number {
  const bound = op.page_size;
  if (!bound) return 1;
  const { param } = bound;
  const fallback = bound.default ?? bound.max;
  // no parameter to read (rows billed out of svc's sight, own keys only): the declared bound, else one
  if (!param) return fallback ?? 1;
  const sent = param.startsWith('query.') ? (query.get(param.slice('query.'.length)) ?? undefined) : getPath(body, param.slice('body'.length));
  const n = sent === undefined || sent === null ? null : countOf(sent);
  const [where, ...name] = param.split(/[.[]/);
  const loc = [where, name.join('.')];
  const named = param.slice(where.length + 1);
  // a page of no rows (or fewer) asks for nothing: providers answer such a call with their default page, which nothing was held for
  if (n !== null && n < 1)
    return invalid([{ loc, msg: `'${named}' of ${op.endpoint_id} asks for ${n} rows; send at least 1.`, type: 'value_error.number.not_ge' }]);
  if (n !== null) return bound.max !== undefined ? Math.min(n, bound.max) : n;
  if (fallback !== undefined) return fallback;
  return invalid([
    {
      loc,
      msg: `${op.endpoint_id} bills every row it returns and declares no page size: send '${named}' so the call's cost is known before it runs.`,
      type: 'value_error.missing',
    },
  ]);
}

/** The most one call can cost at `rows` rows, hit or miss: what is held for it before it runs. */
export function holdMicro(op: OperationRuntime, rows: number): number {
  return Math.max(chargeMicro(op, 'hit', rows), chargeMicro(op, 'miss', 0));
}
