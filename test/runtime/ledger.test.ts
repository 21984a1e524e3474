// The group-committed ledger (runtime/state/ledger-local.ts) over real unstorage drivers: chunks
// shared by concurrent posts, paging across chunk edges, reopening, the earlier one-entry layout, and
// a storage that fails or stalls a write (the one edge stood in for: a disk refusing a write).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createStorage, type Driver, type Storage } from 'unstorage';
import memoryDriver from 'unstorage/drivers/memory';
import { durableFs } from '../../runtime/state/drivers/durable-fs.ts';
import { LocalLedger } from '../../runtime/state/ledger-local.ts';
import type { LedgerEntry } from '../../runtime/state/atomics.ts';

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

const storages = [
  { name: 'memory', open: () => createStorage({ driver: memoryDriver() }) },
  { name: 'durable fs', open: () => { const d = mkdtempSync(join(tmpdir(), 'svc-ledger-')); dirs.push(d); return createStorage({ driver: durableFs({ base: d }) }); } },
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

describe.each(storages)('ledger over $name', ({ open }) => {
  it('writes posts decided together as one chunk and pages across chunk edges exactly', async () => {
    const storage = open();
    const ledger = new LocalLedger(storage);
    const amounts: number[] = [];
    const post = (n: number) => { amounts.push(n); return credit(ledger, n); };
    for (let i = 1; i <= 7; i++) await post(i);
    await Promise.all(Array.from({ length: 100 }, (_, i) => post(100 + i)));
    for (let i = 1; i <= 3; i++) await post(1000 + i);
    const burst = await Promise.all(Array.from({ length: 45 }, (_, i) => post(2000 + i)));
    expect(burst.map((e) => e!.id)).toEqual(Array.from({ length: 45 }, (_, i) => 111 + i));

    const chunks = await storage.getKeys('ledger:acct:');
    expect(chunks.length).toBeGreaterThanOrEqual(12);
    expect(chunks.length).toBeLessThan(155); // the bursts shared writes
    for (const limit of [50, 7, 1, 200]) {
      const entries = await allPages(ledger, limit);
      expect(entries.map((e) => e.id)).toEqual(Array.from({ length: 155 }, (_, i) => 155 - i));
      expect(entries.map((e) => e.amount_micro)).toEqual([...amounts].reverse());
    }
    const sum = amounts.reduce((s, n) => s + n, 0);
    expect(await ledger.account('acct')).toEqual({ balance_micro: sum, earnings_micro: 0 });

    // a second process on the same storage rolls forward from the checkpoint through the chunks
    const again = new LocalLedger(storage);
    expect(await again.account('acct')).toEqual({ balance_micro: sum, earnings_micro: 0 });
    expect((await allPages(again, 50)).map((e) => e.amount_micro)).toEqual([...amounts].reverse());
    expect((await credit(again, 5))!.id).toBe(156);
    expect((await again.entries('acct', null, 2)).entries.map((e) => e.id)).toEqual([156, 155]);
  });

  it('decides a post against the posts still being written, so a burst never overdraws', async () => {
    const ledger = new LocalLedger(open());
    await credit(ledger, 10);
    const charges = await Promise.all([4, 4, 4].map((n) => ledger.post('acct', { kind: 'charge', amount_micro: -n, call_id: 'c' })));
    expect(charges.filter((c) => c === null)).toHaveLength(1);
    expect(await ledger.account('acct')).toEqual({ balance_micro: 2, earnings_micro: 0 });
  });
});

it('reads the earlier layout of one entry per record, and goes on after it', async () => {
  const storage = createStorage({ driver: memoryDriver() });
  const old = (id: number, amount: number, after: number) => storage.setItem(`ledger:acct:${String(id).padStart(12, '0')}`, { id, at: '2026-11-01T00:00:00.000Z', kind: 'credit', amount_micro: amount, balance_after: after, earnings_after: 0 });
  await old(1, 10, 10);
  await old(2, 20, 30);
  await old(3, 30, 60);
  await storage.setItem('account:acct', { balance_micro: 30, earnings_micro: 0, seq: 2 });
  const ledger = new LocalLedger(storage);
  expect(await ledger.account('acct')).toEqual({ balance_micro: 60, earnings_micro: 0 });
  await Promise.all([credit(ledger, 1), credit(ledger, 2)]);
  expect((await allPages(ledger, 2)).map((e) => [e.id, e.amount_micro])).toEqual([[5, 2], [4, 1], [3, 30], [2, 20], [1, 10]]);
});

/** memory storage whose ledger writes can be held back or refused */
function faultyStorage() {
  const inner = memoryDriver();
  const control = { fail: false, hold: null as Promise<void> | null, writes: 0 };
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
  return { storage: createStorage({ driver }) as Storage, control };
}

describe('a write that fails or stalls', () => {
  it('acknowledges nothing decided from the failed write on, and reads the account again from what landed', async () => {
    const { storage, control } = faultyStorage();
    const ledger = new LocalLedger(storage);
    await credit(ledger, 100);
    let release!: () => void;
    control.hold = new Promise((r) => { release = r; });
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

  it('shows balances and pages of written entries only', async () => {
    const { storage, control } = faultyStorage();
    const ledger = new LocalLedger(storage);
    await credit(ledger, 100);
    let release!: () => void;
    control.hold = new Promise((r) => { release = r; });
    const pending = credit(ledger, 5);
    await new Promise((r) => setImmediate(r));
    expect(await ledger.account('acct')).toEqual({ balance_micro: 100, earnings_micro: 0 });
    expect((await ledger.entries('acct', null, 50)).entries.map((e) => e.id)).toEqual([1]);
    release();
    expect((await pending)!.id).toBe(2);
    expect(await ledger.account('acct')).toEqual({ balance_micro: 105, earnings_micro: 0 });
  });
});
