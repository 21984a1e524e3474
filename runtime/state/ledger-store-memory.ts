// Ledger chunks kept in this process's memory (SVC_STORAGE=memory:, where nothing outlives the
// process anyway): a chunk is kept as the array it was decided in, with no record key and no JSON
// per append, which the memory backend's unstorage records cost every charge on the call's path.
import { totalsAfter, type LedgerStore, type StoredEntry, type Totals } from './ledger-store.ts';

const DONE = Promise.resolve();

export class MemoryLedgerStore implements LedgerStore {
  /** per account: the first ids of its chunks, ascending, and the chunks by first id */
  private accounts = new Map<string, { firsts: number[]; chunks: Map<number, StoredEntry[]> }>();

  open(account: string): Promise<Totals> {
    const a = this.accounts.get(account);
    const last = a?.chunks.get(a.firsts[a.firsts.length - 1])?.at(-1);
    return Promise.resolve(last ? totalsAfter(last) : { balance_micro: 0, earnings_micro: 0, seq: 0 });
  }

  /** (LocalLedger makes a new array for each chunk and never changes one it handed over, so it is kept as it is.) */
  append(account: string, entries: StoredEntry[]): Promise<void> {
    this.keep(account, entries);
    return DONE;
  }

  appendAtOnce(account: string, entries: StoredEntry[]): true {
    this.keep(account, entries);
    return true;
  }

  private keep(account: string, entries: StoredEntry[]): void {
    let a = this.accounts.get(account);
    if (!a) this.accounts.set(account, (a = { firsts: [], chunks: new Map() }));
    a.firsts.push(entries[0].id);
    a.chunks.set(entries[0].id, entries);
  }

  firsts(account: string): Promise<readonly number[]> {
    return Promise.resolve(this.accounts.get(account)?.firsts.slice() ?? []);
  }

  chunk(account: string, first: number): Promise<StoredEntry[]> {
    return Promise.resolve(this.accounts.get(account)?.chunks.get(first) ?? []);
  }

  close(): Promise<void> {
    return DONE;
  }
}
