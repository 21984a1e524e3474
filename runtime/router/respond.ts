// The routed answer: one wrapper and three headers, whatever served; refusals thrown as errors.
import type { RouteOutcome } from './outcome.ts';
import { balanceTooLow, invalid } from '../util/fail.ts';
import { CALL_ID_HEADER } from '../util/call-id.ts';
import { STORAGE_RETRY_AFTER_S } from '../state/unavailable.ts';

export interface RoutedResponse {
  status: number;
  /** the JSON answer */
  text: string;
  /** content-type and the x-svc-* headers */
  headers: Record<string, string>;
}

const identityHint = (sets: string[][]) => sets.map((s) => `{${s.join(', ')}}`).join(' or ');

export function respond(o: RouteOutcome, identity: string[][], capability: string, callId: string): RoutedResponse {
  if (o.kind === 'dry_run') {
    const plan = o.plan.attempts.map((a) => ({ endpoint_id: a.endpoint_id, key: a.key, worst_cost_micro: a.worst_cost_micro }));
    // with verification on, every attempt may be followed by one verification at its worst
    const verifications = o.verifier ? plan.length * o.verifier.worst_cost_micro : 0;
    // the most the call can cost: what the plan sums to, but never past the ceiling, which stops the waterfall and caps every charge
    const worst = Math.min(
      plan.reduce((n, a) => n + a.worst_cost_micro, verifications),
      o.ceiling_micro ?? Number.POSITIVE_INFINITY,
    );
    return {
      status: 200,
      headers: { 'content-type': 'application/json', [CALL_ID_HEADER]: callId },
      text: JSON.stringify({ plan, excluded: o.plan.excluded, verification: o.verifier, worst_cost_micro: worst, own_keys_set_aside: o.own_keys_set_aside }),
    };
  }
  // Refusals go through the one error shape of every endpoint (runtime/http/errors.ts).
  if (o.kind === 'unfillable')
    invalid([{ loc: ['body'], msg: `Send one of these identity sets for ${capability}: ${identityHint(identity)}.`, type: 'value_error.identity' }]);
  if (o.kind === 'strict') {
    invalid([
      {
        loc: ['header', 'X-Svc-Route-Strict-Filters'],
        msg: `No child left can apply ${o.ignored_filters.join(', ')}; drop the filter or the header. Nothing was charged.`,
        type: 'value_error.strict_filters',
      },
    ]);
  }
  if (o.kind === 'broke')
    balanceTooLow(
      o.needed_micro!,
      `Balance too low: the cheapest eligible attempt may cost ${o.needed_micro} micro-USD and the balance is ${o.balance_micro} micro-USD; nothing was called or charged. Add credit and retry.`,
    );
  if (o.kind === 'held')
    balanceTooLow(
      o.needed_micro!,
      `Balance too low for this call now: the cheapest attempt may cost ${o.needed_micro} micro-USD and the balance is ${o.balance_micro} micro-USD, less what the team's calls in flight hold; nothing was called or charged. Retry when they finish, or add credit.`,
    );
  // stopped and verification are undefined, so left out of the JSON, when they do not apply
  const svc = { call_id: callId, served_by: o.served_by, tried: o.tried, cost_micro: o.cost_micro, stopped: o.stopped, verification: o.verification };
  const headers: Record<string, string> = { 'content-type': 'application/json', [CALL_ID_HEADER]: callId, 'x-svc-cost-micro': String(o.cost_micro) };
  if (o.served_by) headers['x-svc-served-by'] = o.served_by;
  if (o.ignored_filters.length) headers['x-svc-ignored-filters'] = o.ignored_filters.join(',');
  if (o.stopped) headers['x-svc-stopped'] = o.stopped;
  if (o.stopped === 'storage') {
    headers['retry-after'] = String(STORAGE_RETRY_AFTER_S);
    return { status: 503, headers, text: JSON.stringify({ detail: storageStopSentence(o.cost_micro), _svc: svc }) };
  }
  if (o.kind === 'error') {
    return { status: 502, headers, text: JSON.stringify({ detail: 'Every child that was tried failed with an error; none answered hit or miss.', _svc: svc }) };
  }
  // `raw` is already JSON text (the provider's own bytes, redacted): spliced in, not re-serialised.
  return { status: 200, headers, text: `{"output":${JSON.stringify(o.output)},"raw":${o.raw},"_svc":${JSON.stringify(svc)}}` };
}

/** what a caller is told when storage went away after some of the call's attempts were charged */
export const storageStopSentence = (chargedMicro: number): string =>
  `Storage stopped answering during the call, so svc ended it early; the attempts that ran were charged (${chargedMicro} micro-USD, each in _svc.tried or _svc.steps and in the ledger). Retry after the time given.`;
