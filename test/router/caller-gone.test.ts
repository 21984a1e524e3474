// A caller who leaves in the middle of a waterfall (its client times out, say) pays for the attempt
// under way, which runs to its end, but for no further child: nobody would read what it found. An
// identical call that joined it still waits, so the waterfall goes on for that one.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURE_DIST } from '../helpers/paths.ts';
import { ledgerCharges, postThenLeave, routedWorld, type RoutedWorld } from '../helpers/routed.ts';

let w: RoutedWorld;
let first: string;
let second: string;

beforeAll(async () => {
  w = await routedWorld(FIXTURE_DIST, { env: { SVC_ATTEMPT_TIMEOUT_MS: '5000' } });
  const plan = (await w.call('/proxy/people.email.verify', { email: 'plan@acme.com' }, { 'x-svc-route-dry-run': '1' })).body.plan as Array<{
    endpoint_id: string;
  }>;
  [first, second] = plan.map((p) => p.endpoint_id);
});
afterAll(() => w.close());

/** the first child misses (free) after 600 ms; the second would answer (billed) */
const slowMiss = (name: string) => ({ email: `${name}.latency600ms-${first.split('.')[0]}.nohit-${first.split('.')[0]}@acme.com` });

/** a routed call that leaves after `ms`, by token (Node's fast path) or by session cookie (the h3 route) */
const leaving = (body: object, ms: number, auth: Record<string, string>) => postThenLeave(`${w.url}/proxy/people.email.verify`, body, auth, ms);

/** long enough for the first child's miss (600 ms) and the second child's answer, had it been asked */
const settle = () => new Promise((r) => setTimeout(r, 1_500));

async function session(): Promise<string> {
  const r = await fetch(`${w.url}/auth/session`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ token: w.token }) });
  expect(r.status).toBe(200);
  return r.headers.getSetCookie()[0].split(';')[0];
}

describe('a caller who leaves during the waterfall', () => {
  it('stays: the second child is tried after the first one misses', async () => {
    await fetch(`${w.running.url}/_sandbox/reset`, { method: 'POST' });
    const r = await w.call('/proxy/people.email.verify', slowMiss('stays'));
    expect(r.status).toBe(200);
    expect(r.body._svc.tried.map((t: { endpoint_id: string }) => t.endpoint_id)).toEqual([first, second]);
  });

  for (const [door, auth] of [
    ['token (Node fast path)', async () => ({ 'x-svc-token': w.token })],
    ['session cookie (h3 route)', async () => ({ cookie: await session() })],
  ] as const) {
    it(`by ${door}: pays the attempt under way, and no further child is tried`, async () => {
      await fetch(`${w.running.url}/_sandbox/reset`, { method: 'POST' });
      const charged = (await ledgerCharges(w)).length;
      const balance = await w.ctx.state.balance(w.teamId);
      await leaving(slowMiss(`leaves-${door.split(' ')[0]}`), 200, await auth());
      await settle();
      // the first child's miss is free; the second child, which would have found it, was never asked
      expect(await w.billing()).toEqual({});
      expect(await w.ctx.state.balance(w.teamId)).toBe(balance);
      expect((await ledgerCharges(w)).length).toBe(charged);
    });
  }

  it('an identical call that joined it still waits: the waterfall goes on and answers that one', async () => {
    await fetch(`${w.running.url}/_sandbox/reset`, { method: 'POST' });
    const body = slowMiss('joined');
    const leaves = leaving(body, 200, { 'x-svc-token': w.token });
    await new Promise((r) => setTimeout(r, 50));
    const stays = w.call('/proxy/people.email.verify', body);
    await leaves;
    const r = await stays;
    expect(r.status).toBe(200);
    expect(r.body._svc.shared).toBe(true);
    expect(r.body._svc.served_by).toBe(second);
    expect(Object.keys(await w.billing())).toEqual([second]);
  });
});
