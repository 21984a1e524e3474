// Atomics for one process: a per-key promise lock serialises every read-modify-write, and each step is
// acknowledged only after the backend has the record (the durable-fs driver fsyncs before rename).
// An account's ledger is its write-ahead log: each entry carries the balances after it, and the
// account checkpoint is rewritten every CHECKPOINT_EVERY entries; opening an account rolls forward.
import type { Storage } from 'unstorage';
import { KeyedLock } from './lock.ts';
import { nowIso } from '../util/clock.ts';
import type { Account, Atomics, LedgerDraft, LedgerEntry } from './atomics.ts';

const CHECKPOINT_EVERY = 64;

interface StoredEntry extends LedgerEntry { balance_after: number; earnings_after: number }
interface AccountState extends Account { seq: number; checkpoint: number }

const pad = (n: number) => String(n).padStart(12, '0');
const ledgerKey = (account: string, seq: number) => `ledger:${account}:${pad(seq)}`;

export class LocalAtomics implements Atomics {
  private lock = new KeyedLock();
  private counters = new Map<string, number>();
  private accounts = new Map<string, AccountState>();

  constructor(private storage: Storage) {}

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

  post(account: string, draft: LedgerDraft): Promise<LedgerEntry | null> {
    if (!Number.isSafeInteger(draft.amount_micro)) throw new TypeError(`amount must be integer micro-USD, got ${draft.amount_micro}`);
    return this.lock.run(`account:${account}`, async () => {
      const a = this.accounts.get(account) ?? (await this.open(account));
      const balance = draft.kind === 'earning' ? a.balance_micro : a.balance_micro + draft.amount_micro;
      const earnings = draft.kind === 'earning' ? a.earnings_micro + draft.amount_micro : a.earnings_micro;
      if (balance < 0 || earnings < 0) return null;
      // Fixed-shape objects, not spreads of drafts whose optional fields vary (a hot spot under load);
      // an absent reference is undefined here and absent once written as JSON.
      const { kind, amount_micro, endpoint_id, call_id, tool_id } = draft;
      const id = a.seq + 1;
      const at = nowIso();
      const entry: LedgerEntry = { id, at, kind, amount_micro, endpoint_id, call_id, tool_id };
      const stored: StoredEntry = { id, at, kind, amount_micro, endpoint_id, call_id, tool_id, balance_after: balance, earnings_after: earnings };
      await this.storage.setItem(ledgerKey(account, id), stored);
      a.seq = id;
      a.balance_micro = balance;
      a.earnings_micro = earnings;
      if (a.seq - a.checkpoint >= CHECKPOINT_EVERY) await this.checkpoint(account, a);
      return entry;
    });
  }

  async account(account: string): Promise<Account> {
    const a = await this.loaded(account);
    return { balance_micro: a.balance_micro, earnings_micro: a.earnings_micro };
  }

  async entries(account: string, before: number | null, limit: number): Promise<{ entries: LedgerEntry[]; next: number | null }> {
    const a = await this.loaded(account);
    const top = before === null ? a.seq : Math.min(before - 1, a.seq);
    const ids = [];
    for (let id = top; id >= 1 && ids.length < limit; id--) ids.push(id);
    const found = await Promise.all(ids.map((id) => this.storage.getItem<StoredEntry>(ledgerKey(account, id))));
    const entries = found.filter((e): e is StoredEntry => e !== null).map(publicEntry);
    const last = ids[ids.length - 1];
    return { entries, next: last !== undefined && last > 1 ? last : null };
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

  async flush(): Promise<void> {
    for (const [account, a] of this.accounts) {
      if (a.seq !== a.checkpoint) await this.lock.run(`account:${account}`, () => this.checkpoint(account, a));
    }
  }

  private async loaded(account: string): Promise<AccountState> {
    return this.accounts.get(account) ?? this.lock.run(`account:${account}`, () => this.open(account));
  }

  /** call under the account's lock: the checkpoint plus every ledger entry written after it */
  private async open(account: string): Promise<AccountState> {
    const cached = this.accounts.get(account);
    if (cached) return cached;
    const stored = await this.storage.getItem<Account & { seq: number }>(`account:${account}`);
    const a: AccountState = { balance_micro: 0, earnings_micro: 0, seq: 0, ...stored, checkpoint: stored?.seq ?? 0 };
    for (;;) {
      const next = await this.storage.getItem<StoredEntry>(ledgerKey(account, a.seq + 1));
      if (!next) break;
      Object.assign(a, { seq: next.id, balance_micro: next.balance_after, earnings_micro: next.earnings_after });
    }
    this.accounts.set(account, a);
    return a;
  }

  private async checkpoint(account: string, a: AccountState): Promise<void> {
    const seq = a.seq;
    await this.storage.setItem(`account:${account}`, { balance_micro: a.balance_micro, earnings_micro: a.earnings_micro, seq });
    a.checkpoint = seq;
  }
}

function publicEntry({ balance_after, earnings_after, ...entry }: StoredEntry): LedgerEntry {
  void balance_after; void earnings_after;
  return entry;
}
