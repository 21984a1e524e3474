// Route headers on a pass-through call. It is one operation, so the headers that choose among a
// capability's children cannot apply: each is a 422 naming it, never ignored (a caller who sent
// X-Svc-Route-Exclude meant something). The ceiling and the dry run mean what they mean on a routed
// call, so a caller's X-Svc-Route-Max-Cost or Dry-Run is never a paid call it did not agree to. The
// deadline cannot apply either: it stops a routed call's waterfall from starting more attempts, and
// the one request of a pass-through, once sent, runs to its end (the provider bills it).
import { invalid } from '../util/fail.ts';
import { ROUTE_HEADERS } from '../../language/route-options.ts';
import { parseRouteOptions, type HeaderReader } from './options.ts';

export interface PassThroughOptions {
  /** X-Svc-Route-Max-Cost in micro-USD when sent; a pass-through has no default ceiling beyond the balance */
  maxCostMicro: number | null;
  dryRun: boolean;
}

/** what one operation can honour; every other route header (a new one too) is refused, never ignored */
const APPLYING = new Set(['X-Svc-Route-Max-Cost', 'X-Svc-Route-Dry-Run']);
const CHOOSING = ROUTE_HEADERS.filter((h) => !APPLYING.has(h) && h !== 'X-Svc-Route-Timeout-Ms');
const DEADLINE = 'X-Svc-Route-Timeout-Ms';

export function passThroughOptions(headers: HeaderReader): PassThroughOptions {
  // unknown and malformed route headers: the routed call's 422s
  const o = parseRouteOptions(headers);
  const sent = CHOOSING.filter((h) => headers.get(h.toLowerCase()) !== null);
  const issues = sent.map((h) => ({
    loc: ['header', h],
    msg: `${h} chooses among the children of a routed capability; a pass-through call is one operation, so drop it.`,
    type: 'value_error.not_applicable',
  }));
  if (headers.get(DEADLINE.toLowerCase()) !== null) {
    issues.push({
      loc: ['header', DEADLINE],
      msg: `${DEADLINE} does not apply to a pass-through call: its one request, once sent, runs to its end (at most svc's own attempt limit), since the provider bills it; drop it.`,
      type: 'value_error.not_applicable',
    });
  }
  if (issues.length) invalid(issues);
  return { maxCostMicro: headers.get('x-svc-route-max-cost') === null ? null : o.maxCostMicro, dryRun: o.dryRun };
}

/** 422 when the most the call may cost passes the caller's ceiling: nothing is called or charged. */
export function refuseOverCeiling(o: PassThroughOptions, endpointId: string, worstMicro: number): void {
  if (o.maxCostMicro === null || worstMicro <= o.maxCostMicro) return;
  invalid([
    {
      loc: ['header', 'X-Svc-Route-Max-Cost'],
      msg: `${endpointId} may cost ${worstMicro} micro-USD, more than X-Svc-Route-Max-Cost allows (${o.maxCostMicro}); nothing was called or charged.`,
      type: 'value_error.max_cost',
    },
  ]);
}
