// The routed answer: one wrapper and three headers, whatever served; errors as the spec's shapes.
import type { RouteOutcome } from './execute.ts';

export interface RoutedResponse {
  status: number;
  /** the JSON answer */
  text: string;
  headers: Record<string, string>;
}

const identityHint = (sets: string[][]) => sets.map((s) => `{${s.join(', ')}}`).join(' or ');

export function respond(o: RouteOutcome, identity: string[][], capability: string): RoutedResponse {
  if (o.kind === 'dry_run') {
    const plan = o.plan.attempts.map((a) => ({ endpoint_id: a.endpoint_id, key: a.key, worst_cost_micro: a.worst_cost_micro }));
    return { status: 200, headers: {}, text: JSON.stringify({ plan, excluded: o.plan.excluded, worst_cost_micro: plan.reduce((n, a) => n + a.worst_cost_micro, 0) }) };
  }
  if (o.kind === 'unfillable') {
    return { status: 422, headers: {}, text: JSON.stringify({ detail: [{ loc: ['body'], msg: `Send one of these identity sets for ${capability}: ${identityHint(identity)}.`, type: 'value_error.identity' }] }) };
  }
  if (o.kind === 'strict') {
    const filters = [...new Set(o.plan.excluded.filter((e) => e.reason === 'strict_filter').map((e) => e.endpoint_id))];
    return { status: 422, headers: {}, text: JSON.stringify({ detail: [{ loc: ['header', 'X-Svc-Route-Strict-Filters'], msg: `No child can apply every filter sent (${filters.length} left out for that); nothing was charged.`, type: 'value_error.strict_filters' }] }) };
  }
  if (o.kind === 'broke') {
    return { status: 402, headers: {}, text: JSON.stringify({ detail: `Balance too low: the cheapest eligible attempt may cost ${o.needed_micro} micro-USD. Add credit and retry.` }) };
  }
  const svc = {
    served_by: o.served_by,
    tried: o.tried,
    cost_micro: o.cost_micro,
    ...(o.stopped ? { stopped: o.stopped } : {}),
    ...(o.verification ? { verification: o.verification } : {}),
  };
  const headers: Record<string, string> = { 'x-svc-cost-micro': String(o.cost_micro) };
  if (o.served_by) headers['x-svc-served-by'] = o.served_by;
  if (o.ignored_filters.length) headers['x-svc-ignored-filters'] = o.ignored_filters.join(',');
  if (o.stopped) headers['x-svc-stopped'] = o.stopped;
  if (o.kind === 'error') {
    return { status: 502, headers, text: JSON.stringify({ detail: 'Every child that was tried failed with an error; none answered hit or miss.', _svc: svc }) };
  }
  // `raw` is already JSON text (the provider's own bytes, redacted): spliced in, not re-serialised.
  return { status: 200, headers, text: `{"output":${JSON.stringify(o.output)},"raw":${o.raw},"_svc":${JSON.stringify(svc)}}` };
}
