// Honest answers of routed calls, each case through both doors (the Node fast path of the listening
// server and the h3 route via app.fetch): route headers the router does not know, call ids that tie a
// charge to its call, dry runs that refuse what the call refuses, the balance rule, ceilings finer
// than a micro-dollar, and identity values that cannot be what their field says.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURE_DIST } from '../helpers/paths.ts';
import { DOORS, routedWorld, type RoutedWorld } from '../helpers/routed.ts';

let w: RoutedWorld;
beforeAll(async () => {
  w = await routedWorld(FIXTURE_DIST);
});
afterAll(() => w.close());

/** A team of its own per case, so balances and ledgers are exact. */
async function team(creditMicro: number) {
  const t = (await w.ctx.state.createTeam(`doors ${Math.random()}`, creditMicro))!;
  return { id: t.team.id, token: t.token };
}

const billed = async () => JSON.stringify(await w.billing());

describe.each(DOORS)('through the %s door', (door) => {
  const call = (cap: string, body: unknown, headers: Record<string, string> = {}, token?: string) => w.through(door)(`/proxy/${cap}`, body, headers, token);
  const ledger = async (token: string) =>
    (await w.call('/teams/me/ledger', undefined, {}, token)).body.entries as Array<{
      kind: string;
      amount_micro: number;
      endpoint_id?: string;
      call_id?: string;
    }>;

  describe('route headers', () => {
    it('an unknown X-Svc-Route-* header is a 422 naming it, and nothing is called or charged', async () => {
      const t = await team(1_000_000);
      const before = await billed();
      const r = await call('people.email.verify', { email: 'jane@acme.com' }, { 'X-Svc-Route-Max-Costs': '0.000001' }, t.token);
      expect(r.status).toBe(422);
      expect(r.body.detail[0].loc).toEqual(['header', 'x-svc-route-max-costs']);
      expect(r.body.detail[0].msg).toMatch(/not a route header.*X-Svc-Route-Max-Cost/);
      expect(await billed()).toBe(before);
      expect(await w.ctx.state.balance(t.id)).toBe(1_000_000);
    });

    it('a bad flag value is a 422 naming the header as documented', async () => {
      const r = await call('people.email.verify', { email: 'jane@acme.com' }, { 'x-svc-route-dry-run': 'maybe' });
      expect(r.status).toBe(422);
      expect(r.body.detail).toEqual([
        { loc: ['header', 'X-Svc-Route-Dry-Run'], msg: 'X-Svc-Route-Dry-Run must be one of 1, true, on, 0, false, off.', type: 'value_error' },
      ]);
    });

    it('Prefer or Exclude naming a provider with no child here is a 422 naming it', async () => {
      const prefer = await call('people.email.verify', { email: 'jane@acme.com' }, { 'X-Svc-Route-Prefer': 'zerobounce,findco' });
      expect(prefer.status).toBe(422);
      expect(prefer.body.detail).toEqual([
        {
          loc: ['header', 'X-Svc-Route-Prefer'],
          msg: "'findco' is not a provider of people.email.verify; its providers are checkco, zerobounce.",
          type: 'value_error.provider',
        },
      ]);
      const exclude = await call('google.serp.organic', { q: 'coffee' }, { 'X-Svc-Route-Exclude': 'checkco' });
      expect(exclude.status).toBe(422);
      expect(exclude.body.detail[0].loc).toEqual(['header', 'X-Svc-Route-Exclude']);
      // with Verify on, Exclude reaches the verifier's providers too, so naming one of them is fine
      const verifier = await call(
        'people.email.find',
        { domain: 'stripe.com', full_name: 'Jane Doe' },
        { 'X-Svc-Route-Verify': 'true', 'X-Svc-Route-Exclude': 'checkco', 'X-Svc-Route-Dry-Run': '1' },
      );
      expect(verifier.status).toBe(200);
    });

    it('Verify on a capability without verification is a 422', async () => {
      const r = await call('people.email.verify', { email: 'jane@acme.com' }, { 'X-Svc-Route-Verify': 'true' });
      expect(r.status).toBe(422);
      expect(r.body.detail[0]).toMatchObject({ loc: ['header', 'X-Svc-Route-Verify'], msg: expect.stringMatching(/people.email.verify has no verification/) });
    });
  });

  describe('call ids', () => {
    it('every paid call has one: header, _svc.call_id and each ledger row it caused, verification included', async () => {
      const t = await team(1_000_000);
      const r = await call(
        'people.email.find',
        { domain: 'stripe.com', full_name: 'Jane Doe' },
        { 'X-Svc-Route-Verify': 'true', 'X-Svc-Route-Exclude': 'checkco' },
        t.token,
      );
      expect(r.status).toBe(200);
      const id = r.body._svc.call_id;
      expect(id).toMatch(/^call_[0-9a-f]{32}$/);
      expect(r.headers.get('x-svc-call-id')).toBe(id);
      const rows = (await ledger(t.token)).filter((e) => e.kind === 'charge');
      expect(rows.map((e) => [e.endpoint_id, e.call_id, e.amount_micro])).toEqual([
        ['zerobounce.people.email.verify', id, -8000],
        ['findco.people.email.find', id, -20000],
      ]);
      const again = await call('people.email.verify', { email: 'jane@acme.com' }, {}, t.token);
      expect(again.body._svc.call_id).not.toBe(id);
    });

    it('a pass-through call has one too, on its answer and its ledger row', async () => {
      const t = await team(1_000_000);
      const r = await w.through(door)('/proxy/zerobounce/validate?email=jane@acme.com', undefined, {}, t.token);
      expect(r.status).toBe(200);
      const id = r.headers.get('x-svc-call-id');
      expect(id).toMatch(/^call_[0-9a-f]{32}$/);
      expect((await ledger(t.token))[0]).toMatchObject({ kind: 'charge', amount_micro: -8000, endpoint_id: 'zerobounce.people.email.verify', call_id: id });
    });

    it('callers who joined an identical call in flight see its call id, charged once', async () => {
      const t = await team(1_000_000);
      const rs = await Promise.all(Array.from({ length: 4 }, () => call('google.serp.organic', { q: `latency150ms-searchco ${door} tea` }, {}, t.token)));
      const ids = new Set(rs.map((r) => r.body._svc.call_id));
      expect(ids.size).toBe(1);
      expect(new Set(rs.map((r) => r.headers.get('x-svc-call-id')))).toEqual(ids);
      expect((await ledger(t.token)).filter((e) => e.kind === 'charge').map((e) => [e.call_id, e.amount_micro])).toEqual([[[...ids][0], -1000]]);
    });
  });

  describe('dry runs', () => {
    it('refuse a body that is not an object alike, null too: 422 at the body, nothing called', async () => {
      for (const body of [null, [], 'coffee', 7]) {
        const r = await call('people.email.verify', body);
        expect(r.status, JSON.stringify(body)).toBe(422);
        expect(r.body.detail[0], JSON.stringify(body)).toMatchObject({ loc: ['body'], msg: "'body' must be object." });
      }
    });

    it('refuse a body the call refuses: {} is a 422 on both', async () => {
      for (const headers of [{}, { 'X-Svc-Route-Dry-Run': '1' }] as Array<Record<string, string>>) {
        const r = await call('people.email.find', {}, headers);
        expect(r.status, JSON.stringify(headers)).toBe(422);
        expect(r.body.detail[0].msg).toMatch(/\{domain, full_name\}/);
      }
    });

    it('answer the most the call can cost: what the plan sums to, never past the ceiling', async () => {
      const body = { domain: 'stripe.com', full_name: 'Jane Doe' };
      const r = await call('people.email.find', body, { 'X-Svc-Route-Dry-Run': '1', 'X-Svc-Route-Max-Cost': '0.05' });
      const planned = r.body.plan.reduce((n: number, a: { worst_cost_micro: number }) => n + a.worst_cost_micro, 0);
      // every child fits the ceiling alone, but not all of them together: the waterfall stops at the ceiling
      expect(Math.max(...r.body.plan.map((a: { worst_cost_micro: number }) => a.worst_cost_micro))).toBeLessThanOrEqual(50_000);
      expect(planned).toBeGreaterThan(50_000);
      expect(r.body.worst_cost_micro).toBe(50_000);
    });

    it('count the verification in worst_cost_micro when Verify is on', async () => {
      const body = { domain: 'stripe.com', full_name: 'Jane Doe' };
      const plain = await call('people.email.find', body, { 'X-Svc-Route-Dry-Run': '1' });
      expect(plain.body.worst_cost_micro).toBe(60_000);
      const verified = await call('people.email.find', body, { 'X-Svc-Route-Dry-Run': '1', 'X-Svc-Route-Verify': 'true' });
      // each of the two finds may be followed by a verification whose waterfall costs at most 1000 + 8000
      expect(verified.body.verification).toEqual({ capability: 'people.email.verify', worst_cost_micro: 9_000 });
      expect(verified.body.worst_cost_micro).toBe(60_000 + 2 * 9_000);
      const excluded = await call('people.email.find', body, { 'X-Svc-Route-Dry-Run': '1', 'X-Svc-Route-Verify': 'true', 'X-Svc-Route-Exclude': 'checkco' });
      expect(excluded.body.worst_cost_micro).toBe(60_000 + 2 * 8_000);
    });
  });

  describe('low balance', () => {
    it('402 before any child when the balance is below the cheapest eligible attempt', async () => {
      const t = await team(999);
      const before = await billed();
      const r = await call('people.email.verify', { email: 'jane@acme.com' }, {}, t.token);
      expect(r.status).toBe(402);
      expect(r.body.detail).toMatch(/1000 micro-USD/);
      expect(await billed()).toBe(before);
      expect(await w.ctx.state.balance(t.id)).toBe(999);
    });

    it('stopped "balance" when it runs out during the waterfall', async () => {
      const t = await team(1_000);
      // checkco, tried first, bills its miss (1000), which leaves nothing for zerobounce (8000)
      const r = await call('people.email.verify', { email: `nohit-checkco.${door}@acme.com` }, { 'X-Svc-Route-Prefer': 'checkco' }, t.token);
      expect(r.status).toBe(200);
      expect(r.body._svc.tried.map((x: { outcome: string; reason?: string }) => (x.outcome === 'skipped' ? `skipped:${x.reason}` : x.outcome))).toEqual([
        'miss',
        'skipped:balance',
      ]);
      expect(r.body._svc.stopped).toBe('balance');
      expect(r.headers.get('x-svc-stopped')).toBe('balance');
      expect(await w.ctx.state.balance(t.id)).toBe(0);
    });

    it('a team holding exactly the find and its verification gets both', async () => {
      const t = await team(28_000);
      const r = await call(
        'people.email.find',
        { domain: 'stripe.com', full_name: 'Jane Doe' },
        { 'X-Svc-Route-Verify': 'true', 'X-Svc-Route-Exclude': 'checkco' },
        t.token,
      );
      expect(r.body._svc.served_by).toBe('findco.people.email.find');
      expect(r.body._svc.verification).toMatchObject({ verdict: 'valid', served_by: 'zerobounce.people.email.verify', cost_micro: 8_000 });
      expect(r.body._svc.cost_micro).toBe(28_000);
      expect(await w.ctx.state.balance(t.id)).toBe(0);
    });
  });

  describe('X-Svc-Route-Max-Cost', () => {
    it.each(['0.0000001', '0', '0.0000009'])('%s rounds down to 0 micro-USD: the max_cost stop, not a 422', async (v) => {
      const t = await team(1_000_000);
      const r = await call('people.email.verify', { email: 'jane@acme.com' }, { 'X-Svc-Route-Max-Cost': v }, t.token);
      expect(r.status).toBe(200);
      expect(r.body._svc.stopped).toBe('max_cost');
      expect(r.headers.get('x-svc-stopped')).toBe('max_cost');
      expect(await w.ctx.state.balance(t.id)).toBe(1_000_000);
    });

    it.each(['1e9', '2.50', '.5', '0.0080009', '1.'])('%s is a ceiling', async (v) => {
      const r = await call('people.email.verify', { email: 'jane@acme.com' }, { 'X-Svc-Route-Max-Cost': v, 'X-Svc-Route-Prefer': 'zerobounce' });
      expect(r.status).toBe(200);
      expect(r.body._svc.served_by).toBe('zerobounce.people.email.verify');
    });

    it.each(['-1', 'abc', '1e10', '0.5 USD'])('%s is a 422 naming the header', async (v) => {
      const r = await call('people.email.verify', { email: 'jane@acme.com' }, { 'X-Svc-Route-Max-Cost': v });
      expect(r.status).toBe(422);
      expect(r.body.detail[0].loc).toEqual(['header', 'X-Svc-Route-Max-Cost']);
    });
  });

  describe('identity values that cannot be what their field says', () => {
    it.each([
      ['people.email.verify', { email: 'not an email' }, 'email', /an email address/],
      ['people.email.verify', { email: 'jane.acme.com' }, 'email', /an email address/],
      ['people.email.find', { domain: 'not a domain', full_name: 'Jane Doe' }, 'domain', /a domain name/],
      ['people.email.find', { domain: 'https://stripe.com/about', full_name: 'Jane Doe' }, 'domain', /a domain name/],
      ['people.email.find', { linkedin_handle: 'jane doe' }, 'linkedin_handle', /a LinkedIn handle/],
      ['people.email.find', { linkedin_url: 'https://stripe.com/in/jane' }, 'linkedin_url', /a LinkedIn address/],
    ])('%s %j is a 422 naming the field, before anyone is paid', async (cap, body, field, msg) => {
      const t = await team(1_000_000);
      const before = await billed();
      const r = await call(cap, body, {}, t.token);
      expect(r.status).toBe(422);
      expect(r.body.detail[0]).toMatchObject({ loc: ['body', field], msg: expect.stringMatching(msg), type: 'value_error.pattern' });
      expect(await billed()).toBe(before);
      expect(await w.ctx.state.balance(t.id)).toBe(1_000_000);
    });

    it('values of the right form pass', async () => {
      for (const body of [{ email: 'jane.doe+news@mail.acme.co.uk' }, { email: 'nohit-checkco.x@acme.com' }]) {
        expect((await call('people.email.verify', body, { 'X-Svc-Route-Dry-Run': '1' })).status, JSON.stringify(body)).toBe(200);
      }
      for (const domain of ['stripe.com', 'nohit-findco.acme.co.uk', 'münchen.de']) {
        expect((await call('people.email.find', { domain, full_name: 'Jane Doe' }, { 'X-Svc-Route-Dry-Run': '1' })).status, domain).toBe(200);
      }
    });
  });
});
