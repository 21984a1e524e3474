// The planner's order: own-key children, then Prefer, then children whose misses are free before
// those that bill a miss, then expected cost per hit (measured once a child has 20 decided samples).
import { describe, expect, it } from 'vitest';
import type { Observed, OperationRuntime } from '../../language/types.ts';
import { plan, type PlanInput } from '../../runtime/router/plan.ts';
import { billsMiss } from '../../language/prices.ts';
import { parseRouteOptions } from '../../runtime/router/options.ts';
import { operation } from '../helpers/operation.ts';

function child(id: string, type: 'per_call' | 'per_success' | 'per_result', price_micro: number, bills_miss: boolean): OperationRuntime {
  return operation({
    endpoint_id: id,
    provider: id.split('.')[0],
    price_micro,
    bills_miss,
    cost: { type } as OperationRuntime['cost'],
    serves: 't.cap',
    accepts: [['q']],
    request: { map: [{ from: 'q', to: 'query.q' }] },
    response: { output: {}, max_rows: 10 },
  });
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
    operations,
    fields: { q: 'coffee' },
    sentFilters: [],
    limit: 10,
    options: parseRouteOptions(new Headers(opts.headers ?? {})),
    ownKeys: new Set(opts.own ?? []),
    teamId: 1,
    hasPlatformKey: () => true,
    observed: (id) => opts.observed?.[id] ?? null,
    health: { circuitOpen: () => false, ownKeyCooling: () => false },
  };
  return plan(input).attempts.map((a) => a.endpoint_id);
}

describe('the plan order', () => {
  it('tries children whose misses are free before those that bill one, each group cheapest first', () => {
    expect(Object.values(operations).map((op) => [op.endpoint_id, billsMiss(op)])).toEqual([
      ['cheapmiss.x', true],
      ['rows.x', false],
      ['call.x', false],
      ['success.x', false],
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

describe('the plan, call after call over one capability', () => {
  const ops: Record<string, OperationRuntime> = {
    'a-x.t': child('a-x.t', 'per_call', 2_000, false),
    'a_x.t': child('a_x.t', 'per_call', 2_000, false),
    'mail.t': { ...child('mail.t', 'per_call', 1_000, false), accepts: [['email'], ['q', 'email']] },
    'both.t': { ...child('both.t', 'per_call', 3_000, false), accepts: [['email'], ['q']] },
  };
  const capability = { capability: 't.cap', children: Object.keys(ops) } as PlanInput['capability'];
  const planned = (fields: Record<string, unknown>, over: Partial<PlanInput> = {}) =>
    plan({
      capability,
      operations: ops,
      fields,
      sentFilters: [],
      limit: 1,
      options: parseRouteOptions(new Headers()),
      ownKeys: new Set(),
      teamId: 1,
      hasPlatformKey: () => true,
      observed: () => null,
      health: { circuitOpen: () => false, ownKeyCooling: () => false },
      ...over,
    });

  it('breaks a tie by the ids as localeCompare orders them, not by their code points', () => {
    // '_' sorts before '-' for localeCompare, after it by code point
    expect(planned({ q: 'coffee' }).attempts.map((a) => a.endpoint_id)).toEqual(['a_x.t', 'a-x.t', 'both.t']);
  });

  it('judges each call by the fields it sent and each child by its own identity sets', () => {
    expect(planned({ q: 'coffee' }).excluded).toEqual([{ endpoint_id: 'mail.t', reason: 'no_identity' }]);
    expect(planned({ email: 'jane@acme.com' }).attempts.map((a) => a.endpoint_id)).toEqual(['mail.t', 'both.t']);
    expect(planned({ email: 'jane@acme.com' }).excluded.map((e) => e.reason)).toEqual(['no_identity', 'no_identity']);
    expect(planned({ q: 'coffee', email: 'jane@acme.com' }).attempts).toHaveLength(4);
  });

  it('gives each call the reasons of its own moment', () => {
    expect(planned({ q: 'coffee' }, { hasPlatformKey: (p) => p !== 'both' }).excluded).toContainEqual({ endpoint_id: 'both.t', reason: 'no_key' });
    const open = planned({ q: 'coffee' }, { health: { circuitOpen: (id) => id === 'both.t', ownKeyCooling: () => false } });
    expect(open.excluded).toContainEqual({ endpoint_id: 'both.t', reason: 'circuit_open' });
    expect(planned({ q: 'coffee' }).attempts.map((a) => a.endpoint_id)).toContain('both.t');
  });
});
