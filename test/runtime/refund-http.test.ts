// A refund as a team sees it, on each backend: a routed call's charge given back shows in
// GET /teams/me/ledger as a credit naming the call, the balance in GET /teams/me is whole again, and
// the same refund sent again (or asked for more than the charge) gives nothing more.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LedgerEntry } from '../../runtime/state/index.ts';
import { FIXTURE_DIST } from '../helpers/paths.ts';
import { suiteRedis } from '../helpers/redis.ts';
import { routedWorld, type RoutedWorld } from '../helpers/routed.ts';

const redis = suiteRedis();

const backends = [
  { name: 'memory', storage: async () => 'memory:' },
  {
    name: 'redis',
    storage: async () => {
      await redis.flush();
      return redis.url();
    },
  },
];

describe.each(backends)('refunds on $name', ({ storage }) => {
  let w: RoutedWorld;
  beforeAll(async () => {
    w = await routedWorld(FIXTURE_DIST, { creditMicro: 1_000_000, env: { SVC_STORAGE: await storage() } });
  });
  afterAll(async () => {
    await w.close();
    await w.ctx.state.close();
  });

  const ledger = async (): Promise<LedgerEntry[]> => (await w.call('/teams/me/ledger')).body.entries;
  const balance = async (): Promise<number> => (await w.call('/teams/me')).body.balance_micro;

  it('gives a charge back once, as a credit naming its call, never more than was charged', async () => {
    const answer = await w.call('/proxy/people.email.verify', { email: 'refund.me@acme.com' });
    expect(answer.status).toBe(200);
    const callId = answer.body._svc.call_id as string;
    const cost = answer.body._svc.cost_micro as number;
    expect(cost).toBeGreaterThan(0);
    expect(await balance()).toBe(1_000_000 - cost);
    const charge = (await ledger()).find((e) => e.call_id === callId && e.kind === 'charge')!;
    expect(charge.amount_micro).toBe(-cost);

    expect(await w.ctx.spending.refund(w.teamId, charge.id, cost + 5_000)).toBe(cost); // capped at the charge
    expect(await w.ctx.spending.refund(w.teamId, charge.id, cost)).toBe(0); // sent again: nothing more
    const after = await ledger();
    expect(after[0]).toMatchObject({ kind: 'credit', amount_micro: cost, call_id: callId, endpoint_id: charge.endpoint_id });
    expect(after.filter((e) => e.call_id === callId).map((e) => e.amount_micro)).toEqual([cost, -cost]);
    expect(await balance()).toBe(1_000_000);
  });

  it('refunds nothing that is not a charge: a credit, or an entry that is not there', async () => {
    const [first] = (await ledger()).slice(-1);
    expect(first.kind).toBe('credit');
    expect(await w.ctx.spending.refund(w.teamId, first.id, 100)).toBe(0);
    expect(await w.ctx.spending.refund(w.teamId, 10_000, 100)).toBe(0);
    expect(await balance()).toBe(1_000_000);
  });
});
