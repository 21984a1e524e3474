// Where a LocalLedger keeps its chunks. A chunk is the entries of one group commit, in id order, each
// carrying the balances after it; an account's chunks continue each other (the next starts at the
// last id + 1). Two stores: records in unstorage (memory; ledger-store-records.ts) and one
// append-only file per account (the durable embedded default; ledger-store-segments.ts).
import type { LedgerEntry } from './atomics.ts';

export interface StoredEntry extends LedgerEntry {
  balance_after: number;
  earnings_after: number;
}
export interface Totals {
  balance_micro: number;
  earnings_micro: number;
  seq: number;
}

export interface LedgerStore {
  /** read an account (again, after a failed append): the totals after its last stored entry */
  open(account: string): Promise<Totals>;
  /** store one chunk of an opened account, whole or not at all, before it resolves (so it survives a crash of svc; the file store says when it reaches the disk) */
  append(account: string, entries: StoredEntry[]): Promise<void>;
  /**
   * append, done before it returns when the store can (true; a failure throws, nothing of the chunk
   * kept), else false with nothing done and the caller appends: a lone post is then stored and
   * acknowledged without the promises and turns a chunk's write costs
   */
  appendAtOnce?(account: string, entries: StoredEntry[]): boolean;
  /** the first ids of an opened account's stored chunks, ascending (the store keeps this index) */
  firsts(account: string): Promise<readonly number[]>;
  /** the chunk starting at `first` (empty when there is none) */
  chunk(account: string, first: number): Promise<StoredEntry[]>;
  /** called with no append in flight, before the process exits */
  close(): Promise<void>;
}

/** a stored ledger that cannot be read without guessing: calls for its account are refused (503) */
export class LedgerDamaged extends Error {}

/** what a caller of a team whose ledger is damaged is told (a single call's 503, a batch row's) */
export const LEDGER_DAMAGED_DETAIL =
  "This team's ledger cannot be read safely, so svc takes no calls that read or move its balance until an operator restores it; nothing was charged.";

export const totalsAfter = (e: StoredEntry): Totals => ({ balance_micro: e.balance_after, earnings_micro: e.earnings_after, seq: e.id });
