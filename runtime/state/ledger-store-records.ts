// Ledger chunks as unstorage records: `ledger:{account}:{first id}` holds a chunk, and
// `account:{account}` a checkpoint {balance, earnings, seq} rewritten every CHECKPOINT_EVERY entries,
// so opening an account reads the checkpoint and rolls forward chunk by chunk. A record holding one
// entry object (not an array) is a one-entry chunk: the layout before group commit.
import type { Storage } from 'unstorage';
import { totalsAfter, type LedgerStore, type StoredEntry, type Totals } from './ledger-store.ts';

const CHECKPOINT_EVERY = 64;

const pad = (n: number) => String(n).padStart(12, '0');
const chunkKey = (account: string, first: number) => `ledger:${account}:${pad(first)}`;

export class RecordLedgerStore implements LedgerStore {
  /**
   * per opened account: the stored totals, the seq of the last checkpoint, and the chunk index: the
   * chunks found by listing storage (once, up to the seq at open) plus those appended since
   */
  private accounts = new Map<string, { totals: Totals; checkpoint: number; openedAt: number; listed: Promise<number[]> | null; appended: number[] }>();

  constructor(private storage: Storage) {}

  async open(account: string): Promise<Totals> {
    const stored = await this.storage.getItem<Totals>(`account:${account}`);
    let totals: Totals = { balance_micro: stored?.balance_micro ?? 0, earnings_micro: stored?.earnings_micro ?? 0, seq: stored?.seq ?? 0 };
    const checkpoint = totals.seq;
    for (let last = (await this.chunk(account, totals.seq + 1)).at(-1); last; last = (await this.chunk(account, totals.seq + 1)).at(-1)) {
      totals = totalsAfter(last);
    }
    this.accounts.set(account, { totals, checkpoint, openedAt: totals.seq, listed: null, appended: [] });
    return totals;
  }

  async append(account: string, entries: StoredEntry[]): Promise<void> {
    await this.storage.setItem(chunkKey(account, entries[0].id), entries);
    const a = this.accounts.get(account)!;
    a.totals = totalsAfter(entries[entries.length - 1]);
    a.appended.push(entries[0].id);
    // the checkpoint only shortens the next open; a failed one is tried again after the next chunk
    if (a.totals.seq - a.checkpoint >= CHECKPOINT_EVERY) await this.checkpoint(account).catch(() => {});
  }

  async firsts(account: string): Promise<readonly number[]> {
    const a = this.accounts.get(account)!;
    return (await (a.listed ??= this.list(account, a.openedAt))).concat(a.appended);
  }

  private async list(account: string, upTo: number): Promise<number[]> {
    const prefix = `ledger:${account}:`;
    const firsts = (await this.storage.getKeys(prefix))
      .filter((k) => k.startsWith(prefix))
      .map((k) => Number(k.slice(prefix.length)))
      .filter((n) => Number.isSafeInteger(n) && n >= 1 && n <= upTo);
    return firsts.sort((a, b) => a - b);
  }

  async chunk(account: string, first: number): Promise<StoredEntry[]> {
    const v = await this.storage.getItem<StoredEntry | StoredEntry[]>(chunkKey(account, first));
    return v === null ? [] : Array.isArray(v) ? v : [v];
  }

  async close(): Promise<void> {
    for (const [account, a] of this.accounts) if (a.totals.seq !== a.checkpoint) await this.checkpoint(account);
  }

  private async checkpoint(account: string): Promise<void> {
    const a = this.accounts.get(account)!;
    const { balance_micro, earnings_micro, seq } = a.totals;
    await this.storage.setItem(`account:${account}`, { balance_micro, earnings_micro, seq });
    a.checkpoint = seq;
  }
}
