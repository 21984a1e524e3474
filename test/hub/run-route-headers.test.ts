// Route headers on a hub run: a dry run answers each step's plan and the worst cost (steps plus the
// price) and charges nothing; X-Svc-Route-Max-Cost bounds the whole run (steps plus price) and
// stops it as a routed call stops; a route header a run cannot apply is a 422. Asserted on the
// caller's balance and ledger, the maker's earnings and the sandbox's billing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hubWorld, type HubWorld } from './world.ts';
import { emailTool } from './tool-files.ts';

let w: HubWorld;
let caller: { token: string; teamId: number };
const CREDIT = 5_000_000;
const PRICE = 50_000;
const INPUT = { domain: 'nohit-checkco.io', full_name: 'Ann Lee' };

beforeAll(async () => {
  w = await hubWorld();
  expect((await w.req('POST', '/hub/tools', { tool_id: 'headed', files: emailTool() })).body.status).toBe('live');
  caller = await w.team('headers caller', CREDIT);
});
afterAll(() => w.close());

const run = async (headers: Record<string, string>, input: Record<string, unknown> = INPUT) => {
  const r = await fetch(`${w.url}/hub/tools/headed/run`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-svc-token': caller.token, ...headers },
    body: JSON.stringify({ input }),
  });
  return { status: r.status, headers: r.headers, body: (await r.json()) as any };
};
const billed = async () => Object.values(await w.billing()).reduce((n, b) => n + b.calls, 0);
/** the caller's balance and ledger length, the maker's earnings, and the provider calls made */
const money = async () => ({
  balance: await w.ctx.state.balance(caller.teamId),
  rows: (await w.ctx.state.ledger(caller.teamId, null)).entries.length,
  earned: (await w.ctx.state.account(w.teamId)).earnings_micro,
  calls: await billed(),
});

describe('a hub run with route headers', () => {
  it("X-Svc-Route-Dry-Run: each step's plan and the worst cost, steps plus price; nothing called or charged", async () => {
    const before = await money();
    const r = await run({ 'X-Svc-Route-Dry-Run': '1' });
    expect(r.status).toBe(200);
    expect(r.body.call_id).toMatch(/^call_/);
    expect(r.headers.get('x-svc-cost-micro')).toBe('0');
    expect(r.body.steps.map((s: { id: string; call: string }) => `${s.id}:${s.call}`)).toEqual([
      'find:svc.people.email.find',
      'verify:svc.people.email.verify',
    ]);
    for (const s of r.body.steps) {
      expect(s.plan.length).toBeGreaterThan(0);
      expect(s.worst_cost_micro).toBe(s.plan.reduce((n: number, a: { worst_cost_micro: number }) => n + a.worst_cost_micro, 0));
    }
    expect(r.body.price_micro).toBe(PRICE);
    expect(r.body.worst_cost_micro).toBe(r.body.steps.reduce((n: number, s: { worst_cost_micro: number }) => n + s.worst_cost_micro, PRICE));
    expect(await money()).toEqual(before);
  });

  it('a dry run checks the input as the run does', async () => {
    const r = await run({ 'X-Svc-Route-Dry-Run': '1' }, { domain: 'acme.com' });
    expect(r.status).toBe(422);
    expect(r.body.call_id).toMatch(/^call_/);
  });

  it('X-Svc-Route-Max-Cost below the price: stopped before any step, nothing charged', async () => {
    const before = await money();
    const r = await run({ 'X-Svc-Route-Max-Cost': '0.001' });
    expect(r.status).toBe(200);
    expect(r.headers.get('x-svc-stopped')).toBe('max_cost');
    expect(r.headers.get('x-svc-cost-micro')).toBe('0');
    expect(r.body.output).toBeNull();
    expect(r.body._svc).toMatchObject({ stopped: 'max_cost', cost_micro: 0, price_micro: 0, steps: [] });
    expect(await money()).toEqual(before);
  });

  it('X-Svc-Route-Max-Cost covering the price but no step: stopped at the first step, nothing charged', async () => {
    const before = await money();
    const r = await run({ 'X-Svc-Route-Max-Cost': '0.05' });
    expect(r.status).toBe(200);
    expect(r.headers.get('x-svc-stopped')).toBe('max_cost');
    expect(r.body._svc).toMatchObject({ stopped: 'max_cost', step: 'find', cost_micro: 0, price_micro: 0 });
    expect(r.body._svc.reason).toMatch(/X-Svc-Route-Max-Cost/);
    expect(await money()).toEqual(before);
  });

  it("X-Svc-Route-Max-Cost at the dry run's worst cost: the run serves, and never costs more than the ceiling", async () => {
    const worst = (await run({ 'X-Svc-Route-Dry-Run': '1' })).body.worst_cost_micro as number;
    const before = await money();
    const r = await run({ 'X-Svc-Route-Max-Cost': (worst / 1_000_000).toFixed(6) });
    expect(r.status).toBe(200);
    expect(r.body.output.status).toBe('deliverable');
    const cost = r.body._svc.cost_micro as number;
    expect(cost).toBeLessThanOrEqual(worst);
    expect(before.balance - (await w.ctx.state.balance(caller.teamId))).toBe(cost);
    expect((await w.ctx.state.account(w.teamId)).earnings_micro - before.earned).toBe(PRICE);
  });

  it('a dry run under a ceiling answers at most the ceiling: the run can cost no more, whatever its steps plan', async () => {
    const open = (await run({ 'X-Svc-Route-Dry-Run': '1' })).body.worst_cost_micro as number;
    const ceiling = open - 1_000;
    const r = await run({ 'X-Svc-Route-Dry-Run': '1', 'X-Svc-Route-Max-Cost': (ceiling / 1_000_000).toFixed(6) });
    expect(r.status).toBe(200);
    expect(r.body.worst_cost_micro).toBe(ceiling);
    // below the price, the run stops before any step: it can cost nothing
    const under = await run({ 'X-Svc-Route-Dry-Run': '1', 'X-Svc-Route-Max-Cost': ((PRICE - 1) / 1_000_000).toFixed(6) });
    expect(under.body.worst_cost_micro).toBe(0);
  });

  it('a route header a run cannot apply, or an unknown one, is a 422 naming it; nothing called or charged', async () => {
    const before = await money();
    for (const [header, value] of [
      ['X-Svc-Route-Exclude', 'findco'],
      ['X-Svc-Route-Timeout-Ms', '5000'],
      ['X-Svc-Route-Waterfall', '0'],
      ['X-Svc-Route-Maxcost', '1'],
    ]) {
      const r = await run({ [header]: value });
      expect(r.status, header).toBe(422);
      expect(r.body.detail[0].loc, header).toEqual(['header', header.toLowerCase() === 'x-svc-route-maxcost' ? 'x-svc-route-maxcost' : header]);
      expect(r.headers.get('x-svc-call-id')).toBe(r.body.call_id);
    }
    expect(await money()).toEqual(before);
  });
});
