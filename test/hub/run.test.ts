// Running tools: money that reconciles caller, maker and the sandbox's billing exactly; what a run
// that stops early charges; pinned versions and their 30 days (a controllable clock); retiring.
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { setClock } from '../../runtime/util/clock.ts';
import { StorageUnavailable } from '../../runtime/state/unavailable.ts';
import { hubWorld, type HubWorld } from './world.ts';
import { emailTool } from './tool-files.ts';

let w: HubWorld;
beforeAll(async () => {
  w = await hubWorld();
});
afterAll(() => w.close());
afterEach(() => {
  setClock(null);
});

const publish = async (tool_id: string, files: Record<string, string>) => {
  const r = await w.req('POST', '/hub/tools', { tool_id, files });
  expect(r.body.status).toBe('live');
  return r.body;
};
const billed = async () => Object.values(await w.billing()).reduce((n, b) => n + b.billed_micro, 0);
const ledgerRows = async (teamId: number) => (await w.ctx.state.ledger(teamId, null)).entries;

describe('a run', () => {
  it("charges the caller every step plus the price, credits the price to the maker, and matches the providers' billing", async () => {
    await publish('email-money', emailTool());
    const caller = await w.team('money caller', 5_000_000);
    const makerBefore = await w.ctx.state.account(w.teamId);
    await fetch(`${w.running.url}/_sandbox/reset`, { method: 'POST' });
    const r = await w.req('POST', '/hub/tools/email-money/run', { input: { domain: 'nohit-checkco.io', full_name: 'Ann Lee' } }, caller.token);
    expect(r.status).toBe(200);
    expect(r.body.output).toEqual({ email: expect.stringContaining('@nohit-checkco.io'), status: 'deliverable' });
    const svc = r.body._svc;
    expect(svc).toMatchObject({ tool_id: 'email-money', version: 1, price_micro: 50_000 });
    expect(svc.steps.map((s: { id: string; outcome: string }) => `${s.id}:${s.outcome}`)).toEqual(['find:hit', 'verify:hit']);
    const steps = svc.steps.reduce((n: number, s: { cost_micro: number }) => n + s.cost_micro, 0);
    expect(steps).toBeGreaterThan(0);
    expect(svc.cost_micro).toBe(steps + 50_000);
    expect(r.headers.get('x-svc-cost-micro')).toBe(String(svc.cost_micro));
    expect(r.headers.get('x-svc-call-id')).toBe(svc.call_id);
    // the caller paid exactly that; the maker earned exactly the price; providers billed the steps
    expect(5_000_000 - (await w.ctx.state.balance(caller.teamId))).toBe(svc.cost_micro);
    const makerAfter = await w.ctx.state.account(w.teamId);
    expect(makerAfter.earnings_micro - makerBefore.earnings_micro).toBe(50_000);
    expect(makerAfter.balance_micro).toBe(makerBefore.balance_micro);
    expect(await billed()).toBe(steps);
    // one ledger: the price row and the earning row carry the run's call id and version
    expect((await ledgerRows(caller.teamId)).find((e) => e.tool_id)).toMatchObject({
      kind: 'charge',
      amount_micro: -50_000,
      tool_id: 'email-money@1',
      call_id: svc.call_id,
    });
    expect((await ledgerRows(w.teamId)).filter((e) => e.kind === 'earning')).toEqual([
      expect.objectContaining({ amount_micro: 50_000, tool_id: 'email-money@1', call_id: svc.call_id }),
    ]);
    // the earning was due while the price was charged, and is not due any more
    expect(await w.ctx.state.atomics.keys('earning-due')).toEqual([]);
    // and so do the steps' charges: the caller's rows of this run, summed by its call id, are what it cost
    const runRows = (await ledgerRows(caller.teamId)).filter((e) => e.call_id === svc.call_id);
    expect(runRows.length).toBeGreaterThan(1);
    expect(-runRows.reduce((n, e) => n + e.amount_micro, 0)).toBe(svc.cost_micro);
    // the maker sees the run and the earnings; the run is listed with what it cost
    const tool = await w.req('GET', '/hub/tools/email-money');
    expect(tool.body).toMatchObject({ runs: 1, earnings_micro: 50_000 });
    const runs = await w.req('GET', '/hub/tools/email-money/runs');
    expect(runs.body.runs).toEqual([
      expect.objectContaining({ run: 1, call_id: svc.call_id, team: 'money-caller', outcome: 'ok', price_micro: 50_000, steps_cost_micro: steps }),
    ]);
    // `?cursor=` with nothing after it, as the docs write the list, is the first page
    const empty = await w.req('GET', '/hub/tools/email-money/runs?cursor=');
    expect(empty.status).toBe(200);
    expect(empty.body).toEqual(runs.body);
  });

  it('an earning that storage would not take is paid once storage answers again, and only once', async () => {
    const caller = await w.team('outage caller', 5_000_000);
    const makerBefore = await w.ctx.state.account(w.teamId);
    const { state } = w.ctx;
    const earn = state.earn;
    state.earn = () => Promise.reject(new StorageUnavailable(new Error('connect ECONNREFUSED'), 'Redis'));
    try {
      const r = await w.req('POST', '/hub/tools/email-money/run', { input: { domain: 'nohit-checkco.io', full_name: 'Ann Lee' } }, caller.token);
      expect(r.status).toBe(200);
      expect(r.body._svc.price_micro).toBe(50_000);
      expect((await state.account(w.teamId)).earnings_micro).toBe(makerBefore.earnings_micro);
      expect(await state.atomics.keys('earning-due')).toHaveLength(1);
    } finally {
      state.earn = earn;
    }
    // the retry after the outage, on its own
    await vi.waitFor(async () => expect(await state.atomics.keys('earning-due')).toEqual([]), { timeout: 10_000, interval: 200 });
    await w.ctx.earnings.settle();
    expect((await state.account(w.teamId)).earnings_micro - makerBefore.earnings_micro).toBe(50_000);
  }, 20_000);

  it('a step that finds nothing ends the run: its steps are charged, the price is not', async () => {
    const caller = await w.team('miss caller', 5_000_000);
    await fetch(`${w.running.url}/_sandbox/reset`, { method: 'POST' });
    const r = await w.req('POST', '/hub/tools/email-money/run', { input: { domain: 'nohit.com', full_name: 'Ann Lee' } }, caller.token);
    expect(r.status).toBe(200);
    expect(r.body.output).toBeNull();
    expect(r.body._svc).toMatchObject({ stopped: 'miss', step: 'find', price_micro: 0 });
    expect(5_000_000 - (await w.ctx.state.balance(caller.teamId))).toBe(r.body._svc.cost_micro);
    expect(r.body._svc.cost_micro).toBe(await billed());
  });

  it('refuses bad input before any step runs, and a balance below the price before anything is charged', async () => {
    const caller = await w.team('careful caller', 40_000);
    const bad = await w.req('POST', '/hub/tools/email-money/run', { input: { domain: 'acme.com' } }, caller.token);
    expect(bad.status).toBe(422);
    expect(bad.body.detail[0].loc).toEqual(['body', 'input', 'full_name']);
    const broke = await w.req('POST', '/hub/tools/email-money/run', { input: { domain: 'acme.com', full_name: 'Ann Lee' } }, caller.token);
    expect(broke.status).toBe(402);
    expect(await w.ctx.state.balance(caller.teamId)).toBe(40_000);
  });

  it('a price that calls in flight hold the balance for is a 402 saying so, not that the balance is too low', async () => {
    const caller = await w.team('busy caller', 100_000);
    // another call of the team in flight holds 80,000: 20,000 is left beside it, under the 50,000 price
    const other = await w.ctx.spending.reserve(caller.teamId, 80_000);
    if ('why' in other) throw new Error('the other call could not hold');
    try {
      const r = await w.req('POST', '/hub/tools/email-money/run', { input: { domain: 'acme.com', full_name: 'Ann Lee' } }, caller.token);
      expect(r.status).toBe(402);
      expect(r.body.detail).toBe(
        "Balance held by calls in flight: email-money@1 costs 50000 micro-USD a run plus its steps' charges, and the balance (100000 micro-USD) less what they hold does not cover it. Nothing was charged; retry when they finish.",
      );
      expect(r.body.call_id).toBe(r.headers.get('x-svc-call-id'));
    } finally {
      other.release();
    }
    expect(await w.ctx.state.balance(caller.teamId)).toBe(100_000);
  });

  it('a balance that runs out at a step answers 402: earlier steps charged, the price not, never below zero', async () => {
    // enough for the price and the first step (20000), not for the verifier after it
    const caller = await w.team('short caller', 70_500);
    const r = await w.req('POST', '/hub/tools/email-money/run', { input: { domain: 'nohit-checkco.io', full_name: 'Ann Lee' } }, caller.token);
    expect(r.status).toBe(402);
    expect(r.body.detail).toMatch(/Step 'verify'.*balance is too low.*the tool's price was not/);
    // the step's sentence, then the run's: no router sentence nested inside, no "stopped by balance"
    expect(r.body.detail).toBe(
      "Step 'verify' (svc.people.email.verify) could not run: the balance is too low for its cheapest attempt (1000 micro-USD). The steps that ran were charged (20000 micro-USD); the tool's price was not.",
    );
    expect(await w.ctx.state.balance(caller.teamId)).toBe(70_500 - 20_000);
  });
});

describe("a tool's usage, as its store page measures it", () => {
  it("counts another team's runs that the tool ended, not runs a caller's own balance or ceiling stopped, nor the maker's own", async () => {
    await publish('email-usage', emailTool());
    const input = { input: { domain: 'nohit-checkco.io', full_name: 'Ann Lee' } };
    const run = (token: string, headers: Record<string, string> = {}) =>
      fetch(`${w.url}/hub/tools/email-usage/run`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-svc-token': token, ...headers },
        body: JSON.stringify(input),
      });
    // free to cause: a balance good for the price and the first step only, and a ceiling that leaves the steps nothing
    const short = await w.team('usage short caller', 70_500);
    expect((await run(short.token)).status).toBe(402);
    expect((await run(w.other.token, { 'x-svc-route-max-cost': '0.05' })).headers.get('x-svc-stopped')).toBe('max_cost');
    // the maker's own run: its price comes back to the maker as an earning
    expect((await run(w.token)).status).toBe(200);
    expect((await run(w.other.token)).status).toBe(200);
    const page = await w.req('GET', '/hub/tools/email-usage', undefined, w.other.token);
    expect(page.body.usage).toMatchObject({ runs: 4, sampled: 1, ok: 1, thin: true });
    expect(page.body.usage.said).toMatch(/^1 of 1 runs ok \(too few to call a rate\); median \d+ ms; 4 runs in all$/);
    // the maker still sees every run, and why the stopped ones stopped
    const runs = (await w.req('GET', '/hub/tools/email-usage/runs')).body.runs;
    expect(runs.map((r: { outcome: string }) => r.outcome)).toEqual(['ok', 'ok', 'stopped', 'stopped']);
    expect(runs[3].reason).toMatch(/balance is too low/);
  });
});

describe('a step whose call has left the catalog', () => {
  it('fails the run with 502 naming it; the steps before it are charged, the price is not', async () => {
    await publish('email-dropped', emailTool());
    const caps = w.ctx.catalog.runtime.capabilities;
    const saved = caps['people.email.verify'];
    delete caps['people.email.verify'];
    try {
      const caller = await w.team('dropped caller', 1_000_000);
      const r = await w.req('POST', '/hub/tools/email-dropped/run', { input: { domain: 'acme.com', full_name: 'Ann Lee' } }, caller.token);
      expect(r.status).toBe(502);
      expect(r.body.detail).toMatch(/Step 'verify'.*svc\.people\.email\.verify is no longer in the catalog.*the tool's price was not/);
      expect(r.body._svc).toMatchObject({ stopped: 'refused', step: 'verify', price_micro: 0 });
      expect(1_000_000 - (await w.ctx.state.balance(caller.teamId))).toBe(r.body._svc.cost_micro);
    } finally {
      caps['people.email.verify'] = saved;
    }
  });
});

describe('versions over time', () => {
  it('an older live version serves at @N until 30 days after a newer one went live, then 410', async () => {
    let clock = Date.parse('2027-01-01T00:00:00Z');
    setClock(() => clock);
    await publish('email-pinned', emailTool());
    clock += 86_400_000;
    await w.req('PUT', '/hub/tools/email-pinned', { files: emailTool() });
    const input = { input: { domain: 'nohit-checkco.io', full_name: 'Ann Lee' } };
    const read = await w.req('GET', '/hub/tools/email-pinned', undefined, w.other.token);
    expect(read.body.versions).toEqual([
      // every reader sees when each version went live (the store page's dates)
      { version: 1, status: 'live', created_at: '2027-01-01T00:00:00.000Z', live_at: '2027-01-01T00:00:00.000Z', pinnable_until: '2027-02-01T00:00:00.000Z' },
      { version: 2, status: 'live', created_at: '2027-01-02T00:00:00.000Z', live_at: '2027-01-02T00:00:00.000Z' },
    ]);
    clock = Date.parse('2027-01-31T23:59:59Z');
    const pinned = await w.req('POST', '/hub/tools/email-pinned@1/run', input, w.other.token);
    expect(pinned.status).toBe(200);
    expect(pinned.body._svc.version).toBe(1);
    clock = Date.parse('2027-02-01T00:00:00Z');
    const gone = await w.req('POST', '/hub/tools/email-pinned@1/run', input, w.other.token);
    expect(gone.status).toBe(410);
    expect(gone.body.detail).toMatch(/email-pinned@2/);
    const latest = await w.req('POST', '/hub/tools/email-pinned/run', input, w.other.token);
    expect(latest.body._svc.version).toBe(2);
  });
});

describe('retiring', () => {
  it('retires every version at once: runs answer 410, the maker still reads versions, runs and earnings, and nobody takes the id', async () => {
    await publish('email-retired', emailTool());
    const run = await w.req('POST', '/hub/tools/email-retired/run', { input: { domain: 'nohit-checkco.io', full_name: 'Bo Chen' } }, w.other.token);
    expect(run.status).toBe(200);
    await w.req('PUT', '/hub/tools/email-retired', { files: emailTool() });
    const del = await w.req('DELETE', '/hub/tools/email-retired');
    expect(del.status).toBe(200);
    expect(del.body.retired_at).toEqual(expect.any(String));
    expect(del.body.versions.map((v: { status: string }) => v.status)).toEqual(['retired', 'retired']);
    for (const path of ['/hub/tools/email-retired/run', '/hub/tools/email-retired@1/run']) {
      expect((await w.req('POST', path, { input: { domain: 'a.com', full_name: 'Bo Chen' } }, w.other.token)).status).toBe(410);
      expect((await w.req('POST', path, { input: { domain: 'a.com', full_name: 'Bo Chen' } })).status).toBe(410);
    }
    const mine = await w.req('GET', '/hub/tools/email-retired');
    expect(mine.body).toMatchObject({ status: 'retired', runs: 1, earnings_micro: 50_000 });
    expect((await w.req('GET', '/hub/tools/email-retired/runs')).body.runs).toHaveLength(1);
    expect((await w.req('GET', '/hub/tools/email-retired', undefined, w.other.token)).status).toBe(410);
    expect((await w.req('POST', '/hub/tools', { tool_id: 'email-retired', files: emailTool() }, w.other.token)).status).toBe(409);
    expect((await w.req('PUT', '/hub/tools/email-retired', { files: emailTool() })).status).toBe(410);
  });
});
