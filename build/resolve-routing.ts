// A capability and its children -> the routed endpoint (svc.<capability>), its routing block and the
// captured example of the routed wrapper (the cheapest child's example mapped through its mapping).
import type { CapabilitySrc, EndpointOut, OperationRuntime, OperationSrc, ParamSrc, PlanRow, PlatformSrc, RoutingBlock } from '../language/types.ts';
import { capabilitySample, routedSampleBody, routedTemplate } from '../language/call-template.ts';
import { countRows, mapOutput } from '../language/map-response.ts';
import { attemptChargeMicro } from '../language/prices.ts';
import { ROUTED_UNIT, worstCostMicro } from '../language/prices.ts';
import { prepareCall } from '../language/prepare-call.ts';
import { contractInputs, requiredIdentityFields } from '../language/body-schema.ts';
import { getPath } from '../language/json-path.ts';
import { routeHeaders } from '../language/route-options.ts';
import { usdTextOf } from '../language/money-words.ts';

export interface Child {
  op: OperationSrc;
  /** what the router reads of it (price, billing rule, mappings) */
  rt: OperationRuntime;
  endpoint: EndpointOut;
  example: unknown;
}

/** Expected USD for one hit from the list price: per_result bills every row of a call sending no limit. */
function listUsdPerHit(cap: CapabilitySrc, child: Child): number | null {
  if (child.op.cost && child.op.cost.type !== 'free' && child.op.cost.usd === null) return null; // a price not known
  return worstCostMicro(child.rt, prepareCall(cap, {}).limit) / 1_000_000;
}

function contractParams(cap: CapabilitySrc): Record<string, ParamSrc> {
  const params: Record<string, ParamSrc> = {};
  const required = new Set(requiredIdentityFields(cap));
  for (const { name, type, identity, note, filter } of contractInputs(cap)) {
    const p: ParamSrc = (params[name] = { type, required: required.has(name), note });
    if (identity) p.example = capabilitySample(cap, name);
    if (filter?.default !== undefined && filter.default !== null) p.default = filter.default;
    if (filter?.min !== undefined) p.min = filter.min;
    if (filter?.max !== undefined) p.max = filter.max;
  }
  return params;
}

export function resolveRouted(cap: CapabilitySrc, children: Child[], also: EndpointOut[], platform: PlatformSrc | undefined) {
  const usd = new Map(children.map((c) => [c, listUsdPerHit(cap, c)]));
  const ordered = [...children].sort((a, b) => (usd.get(a) ?? Infinity) - (usd.get(b) ?? Infinity) || a.op.id.localeCompare(b.op.id));
  const plan: PlanRow[] = ordered.map((c) => ({
    endpoint_id: c.op.id,
    accepts: c.op.accepts!,
    usd: c.op.cost?.usd ?? null,
    hit_rate: null,
    usd_per_hit: usd.get(c)!,
    works: c.op.status !== 'down',
  }));
  const prices = plan.map((p) => p.usd_per_hit).filter((u): u is number => u !== null);
  const cheapest = prices.length ? Math.min(...prices) : null;
  const routing: RoutingBlock = {
    contract: {
      identity: cap.identity,
      fields: cap.fields,
      formats: cap.formats ?? {},
      filters: cap.filters ?? {},
      output: cap.output,
      miss: cap.miss,
      derive: cap.derive ?? {},
      ...(cap.verify ? { verify: cap.verify } : {}),
    },
    plan,
    also: also.map((e) => ({ endpoint_id: e.id, usd: e.cost?.usd ?? null })),
    headers: routeHeaders(cap),
  };
  const sample = routedSampleBody(cap);
  const dates = (k: 'verified' | 'added') =>
    children
      .map((c) => c.endpoint[k])
      .filter((d): d is string => Boolean(d))
      .sort();
  const endpoint: EndpointOut = {
    id: `svc.${cap.capability}`,
    provider: 'svc',
    provider_display: 'svc (routed)',
    name: `${cap.capability} (routed)`,
    summary: cap.description,
    method: 'POST',
    path: `/${cap.capability}`,
    scope: '',
    tier: 'core',
    kind: 'routed',
    domain: 'routed',
    call_template: routedTemplate(cap),
    cost: {
      type: 'per_success',
      value: cheapest ?? 0,
      currency: 'USD',
      per: 1,
      unit: ROUTED_UNIT,
      source: 'inferred',
      evidence: null,
      conflict: [],
      usd_evidence: null,
      assumed: null,
      note: `the serving child's price, 0% markup; ${children.length} children from ${usdTextOf(cheapest ?? 0)} per hit`,
      varies: true,
      usd: cheapest,
    },
    async: null,
    platform_eligible: children.some((c) => c.endpoint.platform_eligible),
    platform_blocked: children.some((c) => c.endpoint.platform_eligible) ? null : "Every child needs the caller's own key.",
    miss: { status: 200, means: cap.miss },
    status: null,
    status_note: null,
    superseded_by: null,
    verified: dates('verified').pop() ?? null,
    added: dates('added')[0] ?? null,
    docs_url: '',
    has_example: ordered.some((c) => c.example !== undefined),
    input: {
      bodyType: 'json',
      body: contractParams(cap),
      ...(cap.identity.length > 1 ? { identity_sets: cap.identity } : {}),
      note: 'Send every identity field you know; options travel as X-Svc-Route-* headers.',
    },
    test_request: { body: sample },
    strict_body: true,
    routed_children: ordered.map((c) => c.op.id),
    capability: cap.capability,
    capability_description: cap.description,
    platform: cap.platform,
    platform_label: platform?.label ?? cap.platform,
    observed: null,
  };
  return { endpoint, routing, ordered, example: routedExample(cap, ordered) };
}

/** The wrapper a routed call answers, from the cheapest child that has a captured example. */
function routedExample(cap: CapabilitySrc, ordered: Child[]): unknown {
  const child = ordered.find((c) => c.example !== undefined);
  if (!child) return null;
  const raw = child.op.async ? (getPath(child.example, child.op.async.result.path) ?? child.example) : child.example;
  const output = mapOutput(cap, child.op.response!, raw);
  // charged as the router would charge this hit in a call sending no limit
  const cost_micro = attemptChargeMicro(child.rt, 'hit', countRows(cap, child.op.response!, raw, output), prepareCall(cap, {}).limit);
  return {
    output,
    raw: child.example,
    _svc: { served_by: child.op.id, tried: [{ endpoint_id: child.op.id, outcome: 'hit', status: 200, ms: 0, cost_micro }], cost_micro },
  };
}
