// Atomics for one process: a per-key promise lock serialises every read-modify-write, and each step is
// acknowledged only after the backend has the record (the durable-fs driver fsyncs before rename).
// Accounts and their ledger are LocalLedger's (group commit; see ledger-local.ts), kept in `ledgerStore`.
import type { Storage } from 'unstorage';
import { KeyedLock } from './lock.ts';
import { LocalLedger } from './ledger-local.ts';
import { LocalEphemera } from './ephemeral-local.ts';
import type { LedgerStore } from './ledger-store.ts';
import type { Account, Atomics, HoldAnswer, LedgerDraft, LedgerEntry } from './atomics.ts';

export class LocalAtomics implements Atomics {
  private lock = new KeyedLock();
  private counters = new Map<string, number>();
  private ledger: LocalLedger;
  private ephemera = new LocalEphemera();

  constructor(
    private storage: Storage,
    ledgerStore: LedgerStore,
  ) {
    this.ledger = new LocalLedger(ledgerStore);
  }

  nextId(name: string): Promise<number> {
    return this.incr(`id:${name}`, 1);
  }

  incr(name: string, by = 1): Promise<number> {
    if (!Number.isSafeInteger(by)) throw new TypeError(`counter step must be an integer, got ${by}`);
    return this.lock.run(`counter:${name}`, async () => {
      const value = (await this.counter(name)) + by;
      await this.storage.setItem(`counter:${name}`, value);
      this.counters.set(name, value);
      return value;
    });
  }

  async counter(name: string): Promise<number> {
    const cached = this.counters.get(name);
    if (cached !== undefined) return cached;
    const stored = Number((await this.storage.getItem<number>(`counter:${name}`)) ?? 0);
    // an increment may have landed while this read was in flight; its value is the newer one
    if (!this.counters.has(name)) this.counters.set(name, stored);
    return this.counters.get(name)!;
  }

  /** (Not async: the ledger's promise is answered as it is, one step fewer per charge; a refused draft still rejects.) */
  post(account: string, draft: LedgerDraft, unhold?: string): Promise<LedgerEntry | null> {
    let entry: Promise<LedgerEntry | null>;
    try {
      // with no other call of the account holding money, no other post can join this one's chunk
      entry = this.ledger.post(account, draft, this.ephemera.othersHeld(account, unhold) > 0);
    } catch (e) {
      return Promise.reject(e);
    }
    if (unhold === undefined) return entry;
    // dropped once the entry is stored: until then the hold stands in for the charge, which the
    // stored balance that holds are checked against does not show yet
    return entry.then((e) => {
      if (e) this.ephemera.unhold(account, unhold);
      return e;
    });
  }

  refund(account: string, chargeId: number, amount: number): Promise<LedgerEntry | null> {
    if (!Number.isSafeInteger(amount) || amount < 1) throw new RangeError(`refund must be integer micro-USD ≥ 1, got ${amount}`);
    return this.lock.run(`refund:${account}`, async () => {
      const charge = (await this.ledger.entries(account, chargeId + 1, 1)).entries[0];
      if (charge?.id !== chargeId || charge.kind !== 'charge') return null;
      const key = `refunded:${account}:${chargeId}`;
      const before = (await this.storage.getItem<number>(key)) ?? 0;
      const give = Math.min(amount, -charge.amount_micro - before);
      if (give <= 0) return null;
      // Counted before the credit is posted: a crash between the two can lose this refund (it was
      // never acknowledged) but never lets a second one give the same money back twice.
      await this.storage.setItem(key, before + give);
      const entry = await this.ledger.post(account, {
        kind: 'credit',
        amount_micro: give,
        endpoint_id: charge.endpoint_id,
        call_id: charge.call_id,
        tool_id: charge.tool_id,
      });
      if (!entry) await this.storage.setItem(key, before);
      return entry;
    });
  }

  account(account: string): Promise<Account> {
    return this.ledger.account(account);
  }

  entries(account: string, before: number | null, limit: number): Promise<{ entries: LedgerEntry[]; next: number | null }> {
    return this.ledger.entries(account, before, limit);
  }

  get<T>(key: string): Promise<T | null> {
    // every write replaces a record whole (see the drivers), so a read needs no lock
    return this.storage.getItem<T>(key);
  }

  update<T>(key: string, fn: (current: T | null) => T | undefined | Promise<T | undefined>): Promise<T | null> {
    return this.lock.run(`record:${key}`, async () => {
      const current = await this.storage.getItem<T>(key);
      const next = await fn(current);
      if (next === undefined) return current;
      await this.storage.setItem(key, next as never);
      return next;
    });
  }

  claim<T>(key: string, value: T): Promise<boolean> {
    return this.lock.run(`record:${key}`, async () => {
      if (await this.storage.hasItem(key)) return false;
      await this.storage.setItem(key, value as never);
      return true;
    });
  }

  remove(key: string): Promise<void> {
    return this.lock.run(`record:${key}`, () => this.storage.removeItem(key));
  }

  keys(prefix: string): Promise<string[]> {
    return this.storage.getKeys(prefix);
  }

  async hit(name: string, windowMs: number): Promise<{ count: number; resetMs: number }> {
    return this.ephemera.hit(name, windowMs);
  }

  hold(account: string, id: string, amount: number, ttlMs: number): Promise<HoldAnswer> {
    const balance = this.ledger.openedBalance(account);
    if (balance !== null) return Promise.resolve(this.holdAgainst(balance, account, id, amount, ttlMs));
    return this.ledger.account(account).then((a) => this.holdAgainst(a.balance_micro, account, id, amount, ttlMs));
  }

  /** checked and held in one turn of the event loop: no other hold of this process comes between */
  private holdAgainst(balance_micro: number, account: string, id: string, amount: number, ttlMs: number): HoldAnswer {
    if (balance_micro - this.ephemera.held(account) < amount) return { held: false, balance_micro };
    this.ephemera.hold(account, id, amount, ttlMs);
    return { held: true, balance_micro };
  }

  async unhold(account: string, id: string): Promise<void> {
    this.ephemera.unhold(account, id);
  }

  async mark(name: string, ttlMs: number): Promise<void> {
    this.ephemera.mark(name, ttlMs);
  }

  async marks(): Promise<Map<string, number>> {
    return this.ephemera.marks();
  }

  flush(): Promise<void> {
    return this.ledger.flush();
  }

  /** every answer of this process's ledger is its own: none is ever lost */
  doubtsSettled(): Promise<boolean> {
    return Promise.resolve(true);
  }
}
