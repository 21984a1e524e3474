// The group-committed ledger (runtime/state/ledger-local.ts) over both of its stores: records in
// unstorage and append-only files. Chunks shared by concurrent posts, paging across chunk edges,
// reopening, the earlier one-entry record layout, a torn or damaged file, and a storage that fails or
// stalls a write (the one edge stood in for: a disk refusing a write). Last, the ledger's promises
// through every backend's atomics: memory, embedded, Redis.
import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createStorage, type Driver, type Storage } from 'unstorage';
import memoryDriver from 'unstorage/drivers/memory';
import { LocalLedger } from '../../runtime/state/ledger-local.ts';
import { LocalAtomics } from '../../runtime/state/atomics-local.ts';
import { RecordLedgerStore } from '../../runtime/state/ledger-store-records.ts';
import { SegmentLedgerStore } from '../../runtime/state/ledger-store-segments.ts';
import { MemoryLedgerStore } from '../../runtime/state/ledger-store-memory.ts';
import type { LedgerStore, StoredEntry } from '../../runtime/state/ledger-store.ts';
import type { Atomics, LedgerEntry } from '../../runtime/state/atomics.ts';
import { createState } from '../../runtime/state/index.ts';
import { LEDGER_SYNC_MS } from '../../runtime/config/config.ts';
import { suiteRedis } from '../helpers/redis.ts';

const redis = suiteRedis();

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));
const tempDir = () => {
  const d = mkdtempSync(join(tmpdir(), 'svc-ledger-'));
  dirs.push(d);
  return d;
};

/** every store a test opened, closed after it: a file store holds its accounts' files open */
const opened: LedgerStore[] = [];
const kept = <S extends LedgerStore>(store: S): S => {
  opened.push(store);
  return store;
};
afterEach(async () => {
  for (const store of opened.splice(0)) await store.close();
});

/** a store and a way to open another one on the same data, as a restarted process would */
const stores: Array<{ name: string; make: () => () => LedgerStore }> = [
  {
    name: 'records',
    make: () => {
      const storage = createStorage({ driver: memoryDriver() });
      return () => kept(new RecordLedgerStore(storage));
    },
  },
  {
    name: 'files',
    make: () => {
      const dir = tempDir();
      return () => kept(new SegmentLedgerStore(dir, null, LEDGER_SYNC_MS));
    },
  },
  {
    name: 'files synced at each write',
    make: () => {
      const dir = tempDir();
      return () => kept(new SegmentLedgerStore(dir, null, 0));
    },
  },
  {
    name: 'memory',
    make: () => {
      const store = new MemoryLedgerStore();
      return () => store;
    },
  },
];

const credit = (ledger: LocalLedger, amount: number) => ledger.post('acct', { kind: 'credit', amount_micro: amount });

async function allPages(ledger: LocalLedger, limit: number): Promise<LedgerEntry[]> {
  const out: LedgerEntry[] = [];
  let before: number | null = null;
  for (;;) {
    const page: { entries: LedgerEntry[]; next: number | null } = await ledger.entries('acct', before, limit);
    expect(page.entries.length).toBeLessThanOrEqual(limit);
    out.push(...page.entries);
    if (page.next === null) return out;
    before = page.next;
  }
}

describe.each(stores)('ledger over $name', ({ make }) => {
  it('stores posts decided together as one chunk and pages across chunk edges exactly', async () => {
    const store = make();
    const ledger = new LocalLedger(store());
    const amounts: number[] = [];
    const post = (n: number) => {
      amounts.push(n);
      return credit(ledger, n);
    };
    for (let i = 1; i <= 7; i++) await post(i);
    await Promise.all(Array.from({ length: 100 }, (_, i) => post(100 + i)));
    for (let i = 1; i <= 3; i++) await post(1000 + i);
    const burst = await Promise.all(Array.from({ length: 45 }, (_, i) => post(2000 + i)));
    expect(burst.map((e) => e!.id)).toEqual(Array.from({ length: 45 }, (_, i) => 111 + i));

    for (const limit of [50, 7, 1, 200]) {
      const entries = await allPages(ledger, limit);
      expect(entries.map((e) => e.id)).toEqual(Array.from({ length: 155 }, (_, i) => 155 - i));
      expect(entries.map((e) => e.amount_micro)).toEqual([...amounts].reverse());
    }
    const sum = amounts.reduce((s, n) => s + n, 0);
    expect(await ledger.account('acct')).toEqual({ balance_micro: sum, earnings_micro: 0 });

    // a restarted process reads the same ledger, made of 12 chunks: the bursts shared their writes
    const second = store();
    const again = new LocalLedger(second);
    expect(await again.account('acct')).toEqual({ balance_micro: sum, earnings_micro: 0 });
    expect(await second.firsts('acct')).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 108, 109, 110, 111]);
    expect((await allPages(again, 50)).map((e) => e.amount_micro)).toEqual([...amounts].reverse());
    expect((await credit(again, 5))!.id).toBe(156);
    expect((await again.entries('acct', null, 2)).entries.map((e) => e.id)).toEqual([156, 155]);
    await again.flush();
    expect(await new LocalLedger(store()).account('acct')).toEqual({ balance_micro: sum + 5, earnings_micro: 0 });
  });

  it('decides a post against the posts still being stored, so a burst never overdraws', async () => {
    const ledger = new LocalLedger(make()());
    await credit(ledger, 10);
    const charges = await Promise.all([4, 4, 4].map((n) => ledger.post('acct', { kind: 'charge', amount_micro: -n, call_id: 'c' })));
    expect(charges.filter((c) => c === null)).toHaveLength(1);
    expect(await ledger.account('acct')).toEqual({ balance_micro: 2, earnings_micro: 0 });
  });
});

describe('the record layout of earlier builds (one entry per record)', () => {
  async function oldLedger(): Promise<Storage> {
    const storage = createStorage({ driver: memoryDriver() });
    const old = (id: number, amount: number, after: number) =>
      storage.setItem(`ledger:acct:${String(id).padStart(12, '0')}`, {
        id,
        at: '2026-11-01T00:00:00.000Z',
        kind: 'credit',
        amount_micro: amount,
        balance_after: after,
        earnings_after: 0,
      });
    await old(1, 10, 10);
    await old(2, 20, 30);
    await old(3, 30, 60);
    await storage.setItem('account:acct', { balance_micro: 30, earnings_micro: 0, seq: 2 });
    return storage;
  }
  const expected = [
    [5, 2],
    [4, 1],
    [3, 30],
    [2, 20],
    [1, 10],
  ];

  it('is read by the record store, which goes on after it', async () => {
    const ledger = new LocalLedger(new RecordLedgerStore(await oldLedger()));
    expect(await ledger.account('acct')).toEqual({ balance_micro: 60, earnings_micro: 0 });
    await Promise.all([credit(ledger, 1), credit(ledger, 2)]);
    expect((await allPages(ledger, 2)).map((e) => [e.id, e.amount_micro])).toEqual(expected);
  });

  it('is copied into a file on first open by the file store', async () => {
    const dir = tempDir();
    const ledger = new LocalLedger(kept(new SegmentLedgerStore(dir, new RecordLedgerStore(await oldLedger()), LEDGER_SYNC_MS)));
    expect(await ledger.account('acct')).toEqual({ balance_micro: 60, earnings_micro: 0 });
    await Promise.all([credit(ledger, 1), credit(ledger, 2)]);
    expect((await allPages(ledger, 2)).map((e) => [e.id, e.amount_micro])).toEqual(expected);
    // the file alone now holds it all
    expect((await allPages(new LocalLedger(kept(new SegmentLedgerStore(dir, null, LEDGER_SYNC_MS))), 50)).map((e) => [e.id, e.amount_micro])).toEqual(expected);
  });

  it('is not copied when it skips an entry', async () => {
    const storage = await oldLedger();
    await storage.removeItem('ledger:acct:000000000002');
    await storage.removeItem('account:acct');
    await storage.setItem('account:acct', { balance_micro: 60, earnings_micro: 0, seq: 3 });
    await expect(new LocalLedger(kept(new SegmentLedgerStore(tempDir(), new RecordLedgerStore(storage), LEDGER_SYNC_MS))).account('acct')).rejects.toThrow(
      /skips from 1 to 3/,
    );
  });
});

describe('the file store after a crash', () => {
  async function written(): Promise<string> {
    const dir = tempDir();
    const ledger = new LocalLedger(kept(new SegmentLedgerStore(dir, null, LEDGER_SYNC_MS)));
    await credit(ledger, 10);
    await Promise.all([credit(ledger, 20), credit(ledger, 30)]);
    await ledger.flush();
    return dir;
  }

  it('cuts off a torn last line (nothing in it was acknowledged) and appends after it', async () => {
    for (const torn of ['[{"id":4,"at":"2026-11', '[{"id":4,"at":"2026-11-23T00:00:00.000Z"}\n', '\0\0\0\0\0\0\0\0\0\0\n', '\n']) {
      const dir = await written();
      const file = join(dir, 'acct.jsonl');
      const whole = readFileSync(file, 'utf8');
      appendFileSync(file, torn);
      const ledger = new LocalLedger(kept(new SegmentLedgerStore(dir, null, LEDGER_SYNC_MS)));
      expect(await ledger.account('acct')).toEqual({ balance_micro: 60, earnings_micro: 0 });
      expect(readFileSync(file, 'utf8')).toBe(whole);
      expect((await credit(ledger, 1))!.id).toBe(4);
      expect((await allPages(ledger, 50)).map((e) => e.amount_micro)).toEqual([1, 30, 20, 10]);
    }
  });

  it('refuses to open a file damaged before its last line', async () => {
    const dir = await written();
    const file = join(dir, 'acct.jsonl');
    const lines = readFileSync(file, 'utf8').split('\n');
    writeFileSync(file, [lines[0].replace('"id"', '"xx"'), ...lines.slice(1)].join('\n'));
    await expect(new LocalLedger(kept(new SegmentLedgerStore(dir, null, LEDGER_SYNC_MS))).account('acct')).rejects.toThrow(/line at byte 0 is damaged/);
  });
});

/** a ledger over memory storage whose ledger writes can be held back or refused, with one entry of 100 */
async function faultyLedger() {
  const inner = memoryDriver();
  const control = { fail: false, hold: null as Promise<void> | null, writes: 0 };
  /** hold every ledger write from now until the answer is called */
  const hold = () => {
    let release!: () => void;
    control.hold = new Promise((r) => {
      release = r;
    });
    return release;
  };
  const driver: Driver = {
    ...inner,
    name: 'faulty-memory',
    async setItem(key: string, value: string, opts: object) {
      if (key.startsWith('ledger:')) {
        control.writes++;
        if (control.hold) await control.hold;
        if (control.fail) throw new Error('disk refused the write');
      }
      return inner.setItem!(key, value, opts);
    },
  };
  const ledger = new LocalLedger(new RecordLedgerStore(createStorage({ driver })));
  await credit(ledger, 100);
  return { ledger, control, hold };
}

describe('a write that fails or stalls', () => {
  it('acknowledges nothing decided from the failed write on, and reads the account again from what landed', async () => {
    const { ledger, control, hold } = await faultyLedger();
    const release = hold();
    control.fail = true;
    const inFlight = [credit(ledger, 1), credit(ledger, 2)];
    await new Promise((r) => setImmediate(r)); // the first chunk's write has started and is held
    expect(control.writes).toBe(2);
    const decidedMeanwhile = [credit(ledger, 3), ledger.post('acct', { kind: 'charge', amount_micro: -50 })];
    release();
    for (const p of [...inFlight, ...decidedMeanwhile]) await expect(p).rejects.toThrow('disk refused the write');
    control.hold = null;
    control.fail = false;
    expect(await ledger.account('acct')).toEqual({ balance_micro: 100, earnings_micro: 0 });
    expect((await credit(ledger, 7))!.id).toBe(2);
    expect((await allPages(ledger, 50)).map((e) => e.amount_micro)).toEqual([7, 100]);
  });

  it('shows balances and pages of stored entries only', async () => {
    const { ledger, hold } = await faultyLedger();
    const release = hold();
    const pending = credit(ledger, 5);
    await new Promise((r) => setImmediate(r));
    expect(await ledger.account('acct')).toEqual({ balance_micro: 100, earnings_micro: 0 });
    expect((await ledger.entries('acct', null, 50)).entries.map((e) => e.id)).toEqual([1]);
    release();
    expect((await pending)!.id).toBe(2);
    expect(await ledger.account('acct')).toEqual({ balance_micro: 105, earnings_micro: 0 });
  });
});

describe('group commit', () => {
  it("writes a lone post at once, each line the chunk's JSON byte for byte, read back the same after a reopen", async () => {
    const dir = tempDir();
    const ledger = new LocalLedger(kept(new SegmentLedgerStore(dir, null, LEDGER_SYNC_MS)));
    await ledger.post('acct', { kind: 'credit', amount_micro: 1_000 }); // a credit waits for the disk
    const drafts = [
      { kind: 'charge' as const, amount_micro: -10, endpoint_id: 'acme.people.find', call_id: 'call_1' },
      { kind: 'charge' as const, amount_micro: -20, tool_id: 'tool "quoted" ünï' },
      { kind: 'earning' as const, amount_micro: 5, tool_id: 't', call_id: 'call_2' },
      // a charge whose provider stated its own figure keeps it beside the list price
      {
        kind: 'charge' as const,
        amount_micro: -30,
        endpoint_id: 'acme.people.find',
        call_id: 'call_3',
        list_micro: 10,
        reported_micro: 30,
        reported_value: 0.3,
        reported_unit: 'credits',
      },
    ];
    for (const d of drafts) expect(await ledger.post('acct', d, false)).toMatchObject(d);
    const lines = readFileSync(join(dir, 'acct.jsonl'), 'utf8').split('\n').filter(Boolean);
    expect(lines).toHaveLength(5);
    for (const line of lines) expect(line).toBe(JSON.stringify(JSON.parse(line)));
    expect(JSON.parse(lines[2])).toEqual([
      { id: 3, at: expect.any(String), kind: 'charge', amount_micro: -20, tool_id: 'tool "quoted" ünï', balance_after: 970, earnings_after: 0 },
    ]);
    await ledger.flush();
    const again = new LocalLedger(kept(new SegmentLedgerStore(dir, null, LEDGER_SYNC_MS)));
    expect(await again.account('acct')).toEqual({ balance_micro: 940, earnings_micro: 5 });
    const read = await allPages(again, 2);
    expect(read.map((e) => e.id)).toEqual([5, 4, 3, 2, 1]);
    expect(read[0]).toEqual({ id: 5, at: expect.any(String), ...drafts[3] });
  });

  it('acknowledges no lone post the file refuses, and reads the account again from what landed', async () => {
    const dir = tempDir();
    let refuse = false;
    class Refusing extends SegmentLedgerStore {
      override appendAtOnce(account: string, entries: StoredEntry[]): boolean {
        if (refuse) throw new Error('disk refused the write');
        return super.appendAtOnce(account, entries);
      }
    }
    const ledger = new LocalLedger(kept(new Refusing(dir, null, LEDGER_SYNC_MS)));
    await ledger.post('acct', { kind: 'credit', amount_micro: 100 });
    refuse = true;
    await expect(ledger.post('acct', { kind: 'charge', amount_micro: -30 }, false)).rejects.toThrow('disk refused the write');
    refuse = false;
    expect(await ledger.account('acct')).toEqual({ balance_micro: 100, earnings_micro: 0 });
    expect((await ledger.post('acct', { kind: 'charge', amount_micro: -40 }, false))!.id).toBe(2);
    expect(await ledger.account('acct')).toEqual({ balance_micro: 60, earnings_micro: 0 });
  });

  it('the chunk after a write takes the posts decided before the next turn of the event loop, not only those decided during the write', async () => {
    const chunks: number[] = [];
    let gate: Promise<void> | null = null;
    class Counting extends MemoryLedgerStore {
      override async append(account: string, entries: StoredEntry[]): Promise<void> {
        chunks.push(entries.length);
        if (gate) await gate;
        return super.append(account, entries);
      }
    }
    const ledger = new LocalLedger(new Counting());
    await credit(ledger, 100);
    let release!: () => void;
    gate = new Promise((r) => {
      release = r;
    });
    const first = credit(ledger, 1);
    await new Promise((r) => setImmediate(r)); // its write has started and is held
    const during = credit(ledger, 2);
    // the write ends, and another answer charges before the event loop turns again
    const after = await new Promise<Promise<LedgerEntry | null>>((resolve) =>
      setImmediate(() => {
        gate = null;
        release();
        setImmediate(() => resolve(credit(ledger, 3)));
      }),
    );
    expect((await Promise.all([first, during, after])).map((e) => e!.id)).toEqual([2, 3, 4]);
    expect(chunks).toEqual([1, 1, 2]);
  });

  it('writes at once the charge of a call the account has alone in flight, and holds the write for the turn while other calls hold money', async () => {
    const order: string[] = [];
    class Recording extends MemoryLedgerStore {
      override append(account: string, entries: StoredEntry[]): Promise<void> {
        order.push(`append ${entries.length}`);
        return super.append(account, entries);
      }

      override appendAtOnce(account: string, entries: StoredEntry[]): true {
        order.push(`at once ${entries.length}`);
        return super.appendAtOnce(account, entries);
      }
    }
    const atomics = new LocalAtomics(createStorage({ driver: memoryDriver() }), new Recording());
    await atomics.post('acct', { kind: 'credit', amount_micro: 100 });
    order.length = 0;
    const turn = () =>
      new Promise<void>((resolve) =>
        setImmediate(() => {
          order.push('turn');
          resolve();
        }),
      );
    const charge = (hold: string) => atomics.post('acct', { kind: 'charge', amount_micro: -10, call_id: hold }, hold);
    // one caller calling in a row: its own hold is the only one, and the charge drops it; stored before it is acknowledged, without waiting for a turn
    expect((await atomics.hold('acct', 'a', 10, 60_000)).held).toBe(true);
    let ended = turn();
    expect((await charge('a'))!.amount_micro).toBe(-10);
    await ended;
    // two calls in flight: the first charge waits for the turn, and the second, decided in it, shares its write
    for (const id of ['b', 'c']) expect((await atomics.hold('acct', id, 10, 60_000)).held).toBe(true);
    ended = turn();
    expect((await Promise.all([charge('b'), charge('c')])).map((e) => e!.id)).toEqual([3, 4]);
    await ended;
    expect(order).toEqual(['at once 1', 'turn', 'turn', 'append 2']);
    expect((await atomics.account('acct')).balance_micro).toBe(70);
  });
});

/** the same promises through each backend's atomics: memory, the embedded files, Redis */
const backends: Array<{ name: string; open: () => Promise<{ atomics: Atomics; reopen: (() => Promise<Atomics>) | null; close: () => Promise<void> }> }> = [
  {
    name: 'memory',
    open: async () => {
      const s = await createState({ storage: { kind: 'memory' }, dataDir: tempDir(), secret: 's' });
      return { atomics: s.atomics, reopen: null, close: () => s.close() };
    },
  },
  {
    name: 'embedded',
    open: async () => {
      const config = { storage: { kind: 'fs' as const, dir: null }, dataDir: tempDir(), secret: 's' };
      const states = [await createState(config)];
      return {
        atomics: states[0].atomics,
        reopen: async () => {
          await states[0].close();
          states.push(await createState(config));
          return states[1].atomics;
        },
        close: async () => {
          for (const s of states) await s.close();
        },
      };
    },
  },
  {
    name: 'redis',
    open: async () => {
      await redis.flush();
      const config = { storage: { kind: 'redis' as const, url: redis.url() }, dataDir: tempDir(), secret: 's' };
      const states = [await createState(config)];
      return {
        atomics: states[0].atomics,
        reopen: async () => {
          states.push(await createState(config));
          return states[1].atomics;
        },
        close: async () => {
          for (const s of states) await s.close();
        },
      };
    },
  },
];

describe.each(backends)('the ledger through the $name atomics', ({ open }) => {
  it('numbers bursts in call order, pages exactly at any size, never overdraws, and reads the same after a reopen', async () => {
    const { atomics, reopen, close } = await open();
    const amounts: number[] = [];
    const post = (n: number) => {
      amounts.push(n);
      return atomics.post('acct', { kind: 'credit', amount_micro: n });
    };
    for (let i = 1; i <= 7; i++) await post(i);
    const burst = await Promise.all(Array.from({ length: 100 }, (_, i) => post(100 + i)));
    expect(burst.map((e) => e!.id)).toEqual(Array.from({ length: 100 }, (_, i) => 8 + i));
    const charges = await Promise.all(Array.from({ length: 3 }, () => atomics.post('tight', { kind: 'charge', amount_micro: -4 })));
    expect(charges.every((c) => c === null)).toBe(true); // an empty account takes no charge
    await atomics.post('tight', { kind: 'credit', amount_micro: 10 });
    expect((await Promise.all([4, 4, 4].map((n) => atomics.post('tight', { kind: 'charge', amount_micro: -n })))).filter((c) => c === null)).toHaveLength(1);
    const pages = async (a: Atomics, limit: number) => {
      const out: LedgerEntry[] = [];
      for (let before: number | null = null, first = true; first || before !== null; first = false) {
        const page: { entries: LedgerEntry[]; next: number | null } = await a.entries('acct', before, limit);
        out.push(...page.entries);
        before = page.next;
      }
      return out;
    };
    for (const limit of [50, 7, 1, 200]) expect((await pages(atomics, limit)).map((e) => e.amount_micro)).toEqual([...amounts].reverse());
    const sum = amounts.reduce((s, n) => s + n, 0);
    expect(await atomics.account('acct')).toEqual({ balance_micro: sum, earnings_micro: 0 });
    if (reopen) {
      const again = await reopen();
      expect(await again.account('acct')).toEqual({ balance_micro: sum, earnings_micro: 0 });
      expect(await again.account('tight')).toEqual({ balance_micro: 2, earnings_micro: 0 });
      expect((await pages(again, 50)).map((e) => e.id)).toEqual(Array.from({ length: 107 }, (_, i) => 107 - i));
    }
    await close();
  });
});
