// A caller's own deadline (X-Svc-Route-Timeout-Ms) never makes svc pay a provider for an answer it
// threw away, and never counts against a provider's health, whose circuit every team shares: an
// attempt sent runs to its end and is charged to the team that sent it; a deadline below the floor
// is a 422 before anything is called.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURE_DIST } from '../helpers/paths.ts';
import { ledgerCharges, routedWorld, type RoutedWorld } from '../helpers/routed.ts';
import { CIRCUIT_ERRORS } from '../../runtime/router/health.ts';

let w: RoutedWorld;
let other: string;

beforeAll(async () => {
  w = await routedWorld(FIXTURE_DIST);
  other = (await w.ctx.state.createTeam('deadline other team', 10_000_000))!.token;
});
afterAll(() => w.close());

const ZB = 'zerobounce.people.email.verify';

describe('a caller-set deadline', () => {
  it('below the floor is a 422 naming the header, nothing called or charged', async () => {
    await fetch(`${w.running.url}/_sandbox/reset`, { method: 'POST' });
    const before = await w.ctx.state.balance(w.teamId);
    for (let i = 0; i < 3; i++) {
      const r = await w.call(
        '/proxy/people.email.verify',
        { email: `t${i}.latency0ms-zerobounce@acme.com` },
        { 'X-Svc-Route-Timeout-Ms': '1', 'X-Svc-Route-Waterfall': '0' },
      );
      expect(r.status).toBe(422);
      expect(r.body.detail[0].loc).toEqual(['header', 'X-Svc-Route-Timeout-Ms']);
      expect(r.body.detail[0].msg).toMatch(/at least 100 ms/);
    }
    expect(await w.billing()).toEqual({});
    expect(await w.ctx.state.balance(w.teamId)).toBe(before);
  });

  it('lets an attempt it sent finish and charges it to the caller; another team is still routed to the cheapest child', async () => {
    await fetch(`${w.running.url}/_sandbox/reset`, { method: 'POST' });
    const charged = (await ledgerCharges(w)).filter((c) => c.endpoint_id === ZB).length;
    const calls = CIRCUIT_ERRORS + 3;
    for (let i = 0; i < calls; i++) {
      // the provider answers after 400 ms, past the caller's 100 ms deadline
      const r = await w.call('/proxy/people.email.verify', { email: `d${i}.latency400ms-zerobounce@acme.com` }, { 'X-Svc-Route-Timeout-Ms': '100' });
      expect(r.status).toBe(200);
      expect(r.body._svc.served_by).toBe(ZB);
      // answered after the deadline by the attempt it had sent, never cut as a timeout
      expect(r.body._svc.tried).toEqual([expect.objectContaining({ endpoint_id: ZB, outcome: 'hit', cost_micro: 8000 })]);
      expect(r.body._svc.cost_micro).toBe(8000);
    }
    // what the provider billed is what the caller paid, to the micro-USD
    const billed = (await w.billing())[ZB];
    expect(billed).toEqual({ calls, billed_micro: calls * 8000 });
    const rows = (await ledgerCharges(w)).filter((c) => c.endpoint_id === ZB);
    expect(rows.length - charged).toBe(calls);
    // another team's plain call: the cheapest child's circuit is closed, so it serves
    const b = await w.call('/proxy/people.email.verify', { email: 'jane@acme.com' }, {}, other);
    expect(b.status).toBe(200);
    expect(b.body._svc.served_by).toBe(ZB);
    expect(b.body._svc.tried[0]).toEqual(expect.objectContaining({ endpoint_id: ZB, outcome: 'hit' }));
  });

  it('stops the waterfall: no attempt starts after it', async () => {
    // zerobounce misses after 300 ms (a free miss); checkco would be next, but the deadline has passed
    const r = await w.call('/proxy/people.email.verify', { email: 'nohit-zerobounce.latency300ms-zerobounce@acme.com' }, { 'X-Svc-Route-Timeout-Ms': '100' });
    expect(r.status).toBe(200);
    expect(r.body._svc.tried.map((t: { endpoint_id: string; outcome: string; reason?: string }) => `${t.endpoint_id}:${t.outcome}:${t.reason ?? ''}`)).toEqual([
      `${ZB}:miss:provider said not found`,
      'checkco.people.email.verify:skipped:deadline',
    ]);
  });

  it('does not apply to a pass-through call (its one request runs to its end): a 422 naming it', async () => {
    const r = await w.call('/proxy/zerobounce/v2/validate?email=jane@acme.com', undefined, { 'X-Svc-Route-Timeout-Ms': '5000' });
    expect(r.status).toBe(422);
    expect(r.body.detail.map((d: { loc: string[] }) => d.loc[1])).toEqual(['X-Svc-Route-Timeout-Ms']);
    expect(r.headers.get('x-svc-call-id')).toMatch(/^call_/);
  });
});
