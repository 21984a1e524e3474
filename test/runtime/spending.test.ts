// The one money module: holds keep concurrent calls of a team within its balance, a charge past its
// hold falls back to what was held, a release gives the hold back once, and nothing is reported
// charged that the ledger did not take.
import { afterAll, describe, expect, it } from 'vitest';
import { createState, type State } from '../../runtime/state/index.ts';
import { Spending, type Hold } from '../../runtime/money/spending.ts';
import { suiteRedis } from '../helpers/redis.ts';

const redis = suiteRedis();
const opened: State[] = [];
afterAll(() => Promise.all(opened.map((s) => s.close())));

/** a funded team on the memory store, or on the suite's Redis (where holds live in Redis, shared by instances) */
async function funded(micro: number, on: 'memory' | 'redis' = 'memory') {
  const storage = on === 'redis' ? { kind: 'redis' as const, url: redis.url() } : { kind: 'memory' as const };
  const state = await createState({ storage, dataDir: '/nonexistent', secret: 'spending-secret' });
  if (on === 'redis') opened.push(state);
  const { team } = (await state.createTeam(`spender ${Math.random()}`, micro))!;
  return { state, spending: new Spending(state), teamId: team.id };
}

describe('Spending', () => {
  it('holds only what the balance minus other holds covers, and a release gives it back once', async () => {
    const { spending, teamId } = await funded(1_000);
    const a = (await spending.hold(teamId, 600))!;
    expect(a).not.toBeNull();
    expect(await spending.hold(teamId, 600)).toBeNull();
    a.release();
    a.release(); // a second release gives nothing back twice
    const b = (await spending.hold(teamId, 600))!;
    expect(b).not.toBeNull();
    expect(await spending.hold(teamId, 500)).toBeNull();
    expect(await spending.hold(teamId, 400)).not.toBeNull();
  });

  it('charges the ledger what it answers, and the held amount when the cost passes the balance', async () => {
    const { state, spending, teamId } = await funded(1_000);
    const hold = (await spending.hold(teamId, 300))!;
    expect(await hold.charge(200, { endpoint_id: 'x.y' })).toBe(200);
    expect(await state.balance(teamId)).toBe(800);
    const more = (await spending.hold(teamId, 500))!;
    expect(await more.charge(5_000, { endpoint_id: 'x.y' })).toBe(500); // more rows than held for, past the balance
    expect(await state.balance(teamId)).toBe(300);
  });

  it.each(['memory', 'redis'] as const)("charges past its hold only from what no other call holds, so the other call's charge still lands (%s)", async (on) => {
    const { state, spending, teamId } = await funded(1_000, on);
    const other = (await spending.hold(teamId, 400))!;
    const mine = (await spending.hold(teamId, 100))!;
    // 900 would take 300 of what the other call holds: the held 100 is charged
    expect(await mine.charge(900, { endpoint_id: 'x.y' })).toBe(100);
    expect(await other.charge(400, { endpoint_id: 'x.y' })).toBe(400);
    expect(await state.balance(teamId)).toBe(500);
    const third = (await spending.hold(teamId, 100))!;
    const fourth = (await spending.hold(teamId, 100))!;
    // 400 fits beside the other hold (500 - 100 held by it): charged in full, and nothing stays held
    expect(await third.charge(400, { endpoint_id: 'x.y' })).toBe(400);
    expect(await fourth.charge(100, { endpoint_id: 'x.y' })).toBe(100);
    expect(await state.balance(teamId)).toBe(0);
  });

  it('answers 0, not a charge the ledger refused, when even the held amount cannot be charged', async () => {
    const { state, spending, teamId } = await funded(100);
    const hold = (await spending.hold(teamId, 100))!;
    expect(await state.charge(teamId, 100, {})).toBe(true); // the balance spent behind the hold's back
    expect(await hold.charge(50, { endpoint_id: 'x.y' })).toBe(0);
    expect(await state.balance(teamId)).toBe(0);
  });

  it('says whether the balance covers an amount, with the hold, and why a hold was refused', async () => {
    const { spending, teamId } = await funded(100);
    const held = await spending.reserve(teamId, 100);
    expect(held).not.toHaveProperty('why');
    // each refusal says why, with the balance read in the same step
    expect(await spending.reserve(teamId, 101)).toEqual({ why: 'short', balance_micro: 100 });
    // the balance covers the least the call needs, but calls in flight hold what this one lacks
    expect(await spending.reserve(teamId, 60, 10)).toEqual({ why: 'held', balance_micro: 100 });
    expect(await spending.reserve(teamId, 160, 101)).toEqual({ why: 'short', balance_micro: 100 });
    (held as Hold).release();
    expect(await spending.reserve(teamId, 60, 10)).not.toHaveProperty('why');
  });

  it('drops the hold with the charge, so the money charged is not also held', async () => {
    const { state, spending, teamId } = await funded(1_000);
    const hold = (await spending.hold(teamId, 600))!;
    expect(await hold.charge(600, { endpoint_id: 'x.y' })).toBe(600);
    // no release: the charge ended the hold, and the 400 left may all be held
    expect(await spending.hold(teamId, 400)).not.toBeNull();
    expect(await state.balance(teamId)).toBe(400);
  });

  it('refunds a charge at most once, as a credit naming its call', async () => {
    const { state, spending, teamId } = await funded(1_000);
    const hold = (await spending.hold(teamId, 300))!;
    expect(await hold.charge(250, { endpoint_id: 'x.y', call_id: 'call-9' })).toBe(250);
    const [charge] = (await state.ledger(teamId, null)).entries;
    expect(await spending.refund(teamId, charge.id, 1_000)).toBe(250);
    expect(await spending.refund(teamId, charge.id, 1_000)).toBe(0);
    expect(await state.balance(teamId)).toBe(1_000);
    expect((await state.ledger(teamId, null)).entries[0]).toMatchObject({ kind: 'credit', amount_micro: 250, endpoint_id: 'x.y', call_id: 'call-9' });
  });
});

describe('Spending.spend: hold, run, charge, release', () => {
  const ref = { call_id: 'call_spend' };

  it('runs nothing when the balance cannot cover the least the call needs, and says why', async () => {
    const { spending, teamId } = await funded(500);
    let ran = false;
    const spent = await spending.spend({
      teamId,
      worst: 800,
      least: 600,
      ref,
      run: async () => {
        ran = true;
        return { price: 1, result: null };
      },
    });
    expect(spent).toEqual({ refused: { why: 'short', balance_micro: 500 } });
    expect(ran).toBe(false);
  });

  it('charges what the work says it cost and gives back the rest of the hold', async () => {
    const { state, spending, teamId } = await funded(1_000);
    const spent = await spending.spend({ teamId, worst: 800, ref, run: async () => ({ price: 300, result: 'answer' }) });
    expect(spent).toEqual({ charged: 300, result: 'answer' });
    expect(await state.balance(teamId)).toBe(700);
    // nothing is left held: the whole balance can be held again
    expect(await spending.hold(teamId, 700)).not.toBeNull();
  });

  it('releases the hold when the work throws, charging nothing', async () => {
    const { state, spending, teamId } = await funded(1_000);
    await expect(
      spending.spend({
        teamId,
        worst: 1_000,
        ref,
        run: async () => {
          throw new Error('provider gone');
        },
      }),
    ).rejects.toThrow('provider gone');
    expect(await state.balance(teamId)).toBe(1_000);
    expect(await spending.hold(teamId, 1_000)).not.toBeNull();
  });

  it("makes the charge through the door's own step when it has one (a hub run writes its earning due first)", async () => {
    const { state, spending, teamId } = await funded(1_000);
    const order: string[] = [];
    const spent = await spending.spend({
      teamId,
      worst: 400,
      ref,
      run: async () => ({ price: 400, result: null }),
      charging: async (charge, price) => {
        order.push(`due ${price}`);
        const charged = await charge();
        order.push(`charged ${charged}`);
        return charged;
      },
    });
    expect(spent).toEqual({ charged: 400, result: null });
    expect(order).toEqual(['due 400', 'charged 400']);
    expect(await state.balance(teamId)).toBe(600);
  });
});
