// A hub earning left due (svc gone between the caller's charge and the maker's earning) settled by
// repair on every backend: paid once however often and by however many instances it is repaired,
// nothing paid for a charge that never landed, and a run in flight or another instance's live hold
// left alone. The kill -9 itself is in earnings-crash.test.ts.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createState, type State } from '../../runtime/state/index.ts';
import { Spending } from '../../runtime/money/spending.ts';
import { EarningsDue, LEASE_MS, type Due } from '../../runtime/money/earnings-due.ts';
import { newCallId } from '../../runtime/util/call-id.ts';
import { setClock } from '../../runtime/util/clock.ts';
import { suiteRedis } from '../helpers/redis.ts';

const redis = suiteRedis();

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));
afterEach(() => setClock(null));
const tempDir = () => {
  const d = mkdtempSync(join(tmpdir(), 'svc-earnings-'));
  dirs.push(d);
  return d;
};

interface Opened {
  state: State;
  another: () => Promise<State>;
  close: () => Promise<void>;
}

/** the first state on `config`, and `another` on the same store; `exclusive` closes the one before it opens */
async function opened(config: Parameters<typeof createState>[0], exclusive: boolean): Promise<Opened> {
  const states = [await createState(config)];
  return {
    state: states[0],
    another: async () => {
      if (exclusive) await states.at(-1)!.close();
      states.push(await createState(config));
      return states.at(-1)!;
    },
    close: async () => {
      for (const s of exclusive ? states.slice(-1) : states) await s.close();
    },
  };
}

/** a state, and `another` as a second instance (Redis) or the next process on the same data (embedded) */
const backends: Array<{ name: string; open: () => Promise<Opened> }> = [
  {
    name: 'memory',
    open: async () => {
      const s = await createState({ storage: { kind: 'memory' }, dataDir: tempDir(), secret: 's' });
      return { state: s, another: async () => s, close: () => s.close() };
    },
  },
  {
    name: 'embedded',
    // one process holds the data directory at a time: the next opens once the one before closed
    open: () => opened({ storage: { kind: 'fs', dir: null }, dataDir: tempDir(), secret: 's' }, true),
  },
  {
    name: 'redis',
    open: async () => {
      await redis.flush();
      return opened({ storage: { kind: 'redis', url: redis.url() }, dataDir: tempDir(), secret: 's' }, false);
    },
  },
];

const PRICE = 70_000;

describe.each(backends)('earnings due on $name', ({ name, open }) => {
  /** a caller and a maker; `left` runs the hub's order up to `stage` and stops there, as a process killed then would */
  async function world() {
    const opened = await open();
    const { state } = opened;
    const caller = (await state.createTeam('due caller', 1_000_000))!.team.id;
    const maker = (await state.createTeam('due maker', 0))!.team.id;
    const left = async (stage: 'due' | 'charged' | 'earned'): Promise<Due> => {
      const spending = new Spending(state);
      const due: Due = { maker, caller, amount_micro: PRICE, tool_id: 'due-tool@1', call_id: newCallId() };
      const hold = (await spending.hold(caller, PRICE))!;
      await new EarningsDue(state, spending).charge(due, async () =>
        stage === 'due' ? 0 : hold.charge(PRICE, { tool_id: due.tool_id, call_id: due.call_id }),
      );
      // paid, and killed before the record was removed
      if (stage === 'earned') await spending.pay(maker, PRICE, { tool_id: due.tool_id, call_id: due.call_id });
      return due;
    };
    const repair = async (s: State) => new EarningsDue(s, new Spending(s)).settle();
    const earned = async (s: State, callId: string) => (await s.ledger(maker, null)).entries.filter((e) => e.kind === 'earning' && e.call_id === callId);
    // another instance in this process (or on Redis) waits out the dead one's hold; a next process on the embedded store need not (earnings-crash.test.ts)
    const pastLease = () => {
      const at = Date.now() + LEASE_MS + 1;
      setClock(() => at);
    };
    return { ...opened, caller, maker, left, repair, earned, pastLease };
  }

  it('pays the maker a charge that landed, once, however often it is repaired, and leaves no record', async () => {
    const { state, another, close, maker, caller, left, repair, earned, pastLease } = await world();
    const due = await left('charged');
    expect(await state.balance(caller)).toBe(1_000_000 - PRICE);
    expect((await state.account(maker)).earnings_micro).toBe(0);
    const next = await another();
    pastLease();
    await repair(next);
    await repair(next);
    await repair(await another());
    const last = await another();
    expect(await earned(last, due.call_id)).toEqual([expect.objectContaining({ amount_micro: PRICE, tool_id: 'due-tool@1' })]);
    expect(await last.account(maker)).toEqual({ balance_micro: 0, earnings_micro: PRICE });
    expect(await last.atomics.keys('earning-due')).toEqual([]);
    await close();
  });

  it('two repairs at once pay once, and a record whose earning was posted pays nothing more', async () => {
    const { another, close, maker, left, repair, earned, pastLease } = await world();
    const dues = [await left('charged'), await left('charged'), await left('earned')];
    const a = await another();
    const b = name === 'redis' ? await another() : a; // one process holds the embedded store

    pastLease();
    await Promise.all([repair(a), repair(b), repair(a)]);
    for (const due of dues) expect(await earned(b, due.call_id)).toHaveLength(1);
    expect((await b.account(maker)).earnings_micro).toBe(3 * PRICE);
    expect(await b.atomics.keys('earning-due')).toEqual([]);
    await close();
  });

  it('pays nothing for a record whose charge never landed, and removes it', async () => {
    const { another, close, maker, caller, left, repair, earned, pastLease } = await world();
    const due = await left('due');
    const next = await another();
    expect(await next.atomics.keys('earning-due')).toHaveLength(1);
    pastLease();
    await repair(next);
    expect(await earned(next, due.call_id)).toEqual([]);
    expect(await next.account(maker)).toEqual({ balance_micro: 0, earnings_micro: 0 });
    expect(await next.balance(caller)).toBe(1_000_000);
    expect(await next.atomics.keys('earning-due')).toEqual([]);
    await close();
  });

  it('settles nothing while a post whose answer was lost is in doubt (its charge may be about to be refunded)', async () => {
    const { another, close, left, earned, pastLease } = await world();
    const due = await left('charged');
    const next = await another();
    pastLease();
    let doubtful = true;
    // the state's own answer, but for whether a lost answer is still being checked (redis-doubts.ts)
    const atomics = Object.create(next.atomics, { doubtsSettled: { value: async () => !doubtful } }) as State['atomics'];
    const earnings = new EarningsDue({ ...next, atomics }, new Spending(next));
    await earnings.settle();
    expect(await earned(next, due.call_id)).toEqual([]);
    expect(await next.atomics.keys('earning-due')).toHaveLength(1);
    doubtful = false;
    await earnings.settle();
    expect(await earned(next, due.call_id)).toHaveLength(1);
    expect(await next.atomics.keys('earning-due')).toEqual([]);
    await close();
  });

  it('leaves alone a run in flight in this process and, on Redis, a live hold of another instance', async () => {
    const { state, another, close, maker, caller, repair } = await world();
    const spending = new Spending(state);
    const earnings = new EarningsDue(state, spending);
    const due: Due = { maker, caller, amount_micro: PRICE, tool_id: 'due-tool@1', call_id: newCallId() };
    const hold = (await spending.hold(caller, PRICE))!;
    // a repair of this process while the run is between its charge and its earning
    const charged = await earnings.charge(due, async () => {
      const c = await hold.charge(PRICE, { tool_id: due.tool_id, call_id: due.call_id });
      await earnings.settle();
      await repair(name === 'embedded' ? state : await another());
      return c;
    });
    expect((await state.account(maker)).earnings_micro).toBe(0);
    await earnings.pay(due, charged);
    expect((await state.account(maker)).earnings_micro).toBe(PRICE);
    expect(await state.atomics.keys('earning-due')).toEqual([]);
    await close();
  });
});
