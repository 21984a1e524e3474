// The planner's order: own-key children, then Prefer, then children whose misses are free before
// those that bill a miss, then expected cost per hit (measured once a child has 20 decided samples).
import { describe, expect, it } from 'vitest';
import type { Observed, OperationRuntime } from '../../language/types.ts';
import { plan, type PlanInput } from '../../runtime/router/plan.ts';
import { billsMiss } from '../../language/prices.ts';
import { parseRouteOptions } from '../../runtime/router/options.ts';

function child(id: string, type: 'per_call' | 'per_success' | 'per_result', price_micro: number, bills_miss: boolean): OperationRuntime {
  return {
    endpoint_id: id, provider: id.split('.')[0], method: 'GET', path: '/', input: {}, price_micro, bills_miss, miss: null,
    cost: { type } as OperationRuntime['cost'], serves: 't.cap', accepts: [['q']], request: { map: [{ from: 'q', to: 'query.q' }] },
    response: { output: {}, max_rows: 10 }, async: null, platform_eligible: true, body_allowlist: false, strict_query: false, strict_body: false, example: null,
  } as OperationRuntime;
}

const operations: Record<string, OperationRuntime> = {
  'cheapmiss.x': child('cheapmiss.x', 'per_call', 1_000, true), // the cheapest, but a miss is billed
  'rows.x': child('rows.x', 'per_result', 100, true), // per-result: a miss has no rows, so it is free
  'call.x': child('call.x', 'per_call', 3_000, false),
  'success.x': child('success.x', 'per_success', 5_000, false),
};

function order(opts: { headers?: Record<string, string>; own?: string[]; observed?: Record<string, Observed> } = {}): string[] {
  const input: PlanInput = {
    capability: { capability: 't.cap', children: Object.keys(operations) } as PlanInput['capability'],
    operations, fields: { q: 'coffee' }, sentFilters: [], limit: 10,
    options: parseRouteOptions(new Headers(opts.headers ?? {})), ownKeys: new Set(opts.own ?? []), teamId: 1,
    hasPlatformKey: () => true, observed: (id) => opts.observed?.[id] ?? null,
    health: { circuitOpen: () => false, ownKeyCooling: () => false },
  };
  return plan(input).attempts.map((a) => a.endpoint_id);
}

describe('the plan order', () => {
  it('tries children whose misses are free before those that bill one, each group cheapest first', () => {
    expect(Object.values(operations).map((op) => [op.endpoint_id, billsMiss(op)])).toEqual([
      ['cheapmiss.x', true], ['rows.x', false], ['call.x', false], ['success.x', false],
    ]);
    expect(order()).toEqual(['rows.x', 'call.x', 'success.x', 'cheapmiss.x']);
  });

  it('an own key, then Prefer, come before whether a miss is billed', () => {
    expect(order({ own: ['cheapmiss'] })[0]).toBe('cheapmiss.x');
    expect(order({ headers: { 'x-svc-route-prefer': 'cheapmiss,success' } })).toEqual(['cheapmiss.x', 'success.x', 'rows.x', 'call.x']);
  });

  it('a measured hit rate reorders children within their group, never across it', () => {
    const poor = { decided: 20, hit_rate: 0.1 } as Observed;
    expect(order({ observed: { 'call.x': poor } })).toEqual(['rows.x', 'success.x', 'call.x', 'cheapmiss.x']);
    const perfect = { decided: 20, hit_rate: 1 } as Observed;
    expect(order({ observed: { 'cheapmiss.x': perfect, 'call.x': poor } }).at(-1)).toBe('cheapmiss.x');
  });
});
