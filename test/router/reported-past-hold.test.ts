// A reported charge above the worst case held takes only money no other call of the team holds: the
// ledger refuses a charge only below a zero balance, so a report charged from money another call
// holds would leave that call's charge refused within its own hold (answered free, the provider paid).
// Serper (1 credit = 1,000 micro-USD) against the real sandbox over loopback.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REAL_DIST } from '../helpers/paths.ts';
import { routedWorld, type RoutedWorld } from '../helpers/routed.ts';
import { chargesOf } from '../helpers/reported.ts';

const BALANCE = 100_000;
let w: RoutedWorld;

beforeAll(async () => {
  w = await routedWorld(REAL_DIST, { creditMicro: BALANCE });
});
afterAll(() => w.close());

const serp = (q: string) => w.call('/proxy/google.serp.organic', { q }, { 'X-Svc-Route-Prefer': 'serper' });

/** until a call in flight holds part of the balance (a hold of all of it is refused as `held`) */
async function someoneHolds(): Promise<void> {
  for (;;) {
    const probe = await w.ctx.spending.reserve(w.teamId, await w.ctx.state.balance(w.teamId));
    if ('why' in probe) {
      expect(probe.why).toBe('held');
      return;
    }
    probe.release();
    await new Promise((wake) => setTimeout(wake, 10));
  }
}

describe('a report above the hold, while another call holds part of the balance', () => {
  it("is charged from what no call holds: the other call's charge lands, and every answer is what the ledger took", async () => {
    // a slow call holds its worst case (1 credit) while a quick one reports the whole balance
    const slow = serp('slow latency800ms-serper');
    await someoneHolds();
    const quick = await serp('quick charge100-serper');
    const held = await slow;
    expect(quick.status).toBe(200);
    expect(held.status).toBe(200);
    expect(held.body._svc.served_by).toBe('serper.google.serp.organic');
    // the slow call is charged its price, not answered free
    expect(held.body._svc.cost_micro).toBe(1000);
    expect((await chargesOf(w, held.body._svc.call_id)).map((e) => e.amount_micro)).toEqual([-1000]);
    // the quick call's report passed what the balance less the other hold covers: it is charged what it held
    expect(quick.body._svc.tried[0]).toMatchObject({ cost_micro: 1000, reported: { value: 100, micro: 100_000 } });
    expect((await chargesOf(w, quick.body._svc.call_id)).map((e) => e.amount_micro)).toEqual([-1000]);
    expect(BALANCE - (await w.ctx.state.balance(w.teamId))).toBe(quick.body._svc.cost_micro + held.body._svc.cost_micro);
  }, 30_000);

  it('is charged in full when the balance less the other holds covers it', async () => {
    const before = await w.ctx.state.balance(w.teamId);
    const slow = serp('slow2 latency800ms-serper');
    await someoneHolds();
    // 50 credits: the balance left (98,000) less the slow call's hold covers it
    const quick = await serp('quick2 charge50-serper');
    const held = await slow;
    expect(quick.body._svc.tried[0]).toMatchObject({ cost_micro: 50_000, reported: { value: 50, micro: 50_000 } });
    expect(held.body._svc.cost_micro).toBe(1000);
    expect(before - (await w.ctx.state.balance(w.teamId))).toBe(51_000);
  }, 30_000);
});
