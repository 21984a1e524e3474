// The ledger of one process (the only writer of its storage, so balances may be decided in memory).
// A post is decided at once against everything decided before it, then stored with the other posts
// decided in the same turn or while the previous write was in flight, as one chunk (group commit; a
// post no other can join, see post(), is written without waiting for the turn to end, and at once
// when no write is in flight and the store can write without waiting for the disk): the
// file store pays one write (and at most one sync) per chunk instead of one per entry, and a chunk
// lands whole or not at all. A post is acknowledged only once its chunk is stored; balances and pages
// show stored entries only.
import { nowIso } from '../util/clock.ts';
import { lastAtOrBelow } from '../util/sorted.ts';
import type { Account, LedgerDraft, LedgerEntry } from './atomics.ts';
import type { LedgerStore, StoredEntry, Totals } from './ledger-store.ts';

interface Chunk {
  entries: StoredEntry[];
  done: Promise<void>;
  resolve: () => void;
  reject: (error: unknown) => void;
}

interface AccountLog {
  /** after every decided entry, stored or not */
  decided: Totals;
  /** after every stored entry */
  stored: Totals;
  /** decided, waiting for the write in flight to end */
  next: Chunk | null;
  /** the writer loop, while one runs */
  writing: Promise<void> | null;
}

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));
const THIS_TURN = Promise.resolve();

/** (The promise's own resolve and reject are kept, not a closure over them: tsx names each closure as it is made.) */
function newChunk(): Chunk {
  const chunk = { entries: [] as StoredEntry[] } as Chunk;
  chunk.done = new Promise<void>((resolve, reject) => {
    chunk.resolve = resolve;
    chunk.reject = reject;
  });
  // a chunk nobody awaits any more (its posts' callers went away) must not be an unhandled rejection
  chunk.done.catch(() => {});
  return chunk;
}

export class LocalLedger {
  private logs = new Map<string, AccountLog>();
  private opening = new Map<string, Promise<AccountLog>>();

  constructor(private store: LedgerStore) {}

  /**
   * `gather`: whether other posts of the account may come in this turn of the event loop (other calls
   * of it are in flight), so that a chunk this post starts waits for the turn's end to take them. A
   * post that knows none can come (one caller calling in a row) starts its write once this turn's
   * promises have run, without an event loop turn of its own.
   */
  post(account: string, draft: LedgerDraft, gather = true): Promise<LedgerEntry | null> {
    if (!Number.isSafeInteger(draft.amount_micro)) throw new TypeError(`amount must be integer micro-USD, got ${draft.amount_micro}`);
    const log = this.logs.get(account);
    return log ? this.decide(account, log, draft, gather) : this.open(account).then((l) => this.decide(account, l, draft, gather));
  }

  account(account: string): Promise<Account> {
    const log = this.logs.get(account);
    return log ? Promise.resolve(storedAccount(log)) : this.open(account).then(storedAccount);
  }

  /** the stored balance of an opened account, null before it is opened: every hold of a call reads one, so it is answered without a promise */
  openedBalance(account: string): number | null {
    return this.logs.get(account)?.stored.balance_micro ?? null;
  }

  async entries(account: string, before: number | null, limit: number): Promise<{ entries: LedgerEntry[]; next: number | null }> {
    const log = this.logs.get(account) ?? (await this.open(account));
    const top = before === null ? log.stored.seq : Math.min(before - 1, log.stored.seq);
    const chunks = await this.store.firsts(account);
    const entries: LedgerEntry[] = [];
    let id = top;
    // the chunks holding ids top, top-1, … newest first, until the page is full
    for (let c = lastAtOrBelow(chunks, top); c >= 0 && id >= 1 && entries.length < limit; c--) {
      const stored = await this.store.chunk(account, chunks[c]);
      for (let i = stored.length - 1; i >= 0 && entries.length < limit; i--) {
        if (stored[i].id > id) continue;
        entries.push(publicEntry(stored[i]));
        id = stored[i].id - 1;
      }
    }
    return { entries, next: id >= 1 && entries.length ? id + 1 : null };
  }

  /** wait for every write in flight and let the store finish; a later use reads accounts again */
  async flush(): Promise<void> {
    for (const log of this.logs.values()) while (log.writing) await log.writing;
    this.logs.clear();
    await this.store.close();
  }

  private decide(account: string, log: AccountLog, draft: LedgerDraft, gather: boolean): Promise<LedgerEntry | null> {
    const d = log.decided;
    const earning = draft.kind === 'earning';
    const balance = earning ? d.balance_micro : d.balance_micro + draft.amount_micro;
    const earnings = earning ? d.earnings_micro + draft.amount_micro : d.earnings_micro;
    // below zero, or past what an integer keeps exactly: refused, nothing written
    if (balance < 0 || earnings < 0 || !Number.isSafeInteger(balance) || !Number.isSafeInteger(earnings)) return Promise.resolve(null);
    // Fixed-shape objects, not spreads of drafts whose optional fields vary (a hot spot under load);
    // an absent reference is undefined here and absent once written as JSON. `id` stays the first
    // field: the segment store reads a chunk's first id from the start of its line.
    const { kind, amount_micro, endpoint_id, call_id, tool_id, list_micro, reported_micro, reported_value, reported_unit } = draft;
    const id = d.seq + 1;
    const at = nowIso();
    const entry: LedgerEntry = { id, at, kind, amount_micro, endpoint_id, call_id, tool_id, list_micro, reported_micro, reported_value, reported_unit };
    const stored: StoredEntry = {
      id,
      at,
      kind,
      amount_micro,
      endpoint_id,
      call_id,
      tool_id,
      list_micro,
      reported_micro,
      reported_value,
      reported_unit,
      balance_after: balance,
      earnings_after: earnings,
    };
    d.balance_micro = balance;
    d.earnings_micro = earnings;
    d.seq = id;
    // A post none can join, with no write in flight, is stored at once where the store can: the
    // same chunk of one, acknowledged only once it is stored, without a chunk's promises and turns.
    if (!gather && !log.writing && this.store.appendAtOnce) {
      try {
        if (this.store.appendAtOnce(account, [stored])) {
          const s = log.stored;
          s.balance_micro = balance;
          s.earnings_micro = earnings;
          s.seq = id;
          return Promise.resolve(entry);
        }
      } catch (error) {
        // as a failed chunk: nothing from it on is acknowledged, and the account is read again
        this.logs.delete(account);
        return Promise.reject(error);
      }
    }
    const chunk = (log.next ??= newChunk());
    chunk.entries.push(stored);
    // The first chunk waits for the end of this turn of the event loop, so posts decided by other
    // requests in the same turn share its write.
    log.writing ??= (gather ? nextTurn() : THIS_TURN).then(() => this.write(account, log));
    return chunk.done.then(() => entry);
  }

  /** the writer loop: one chunk at a time, each holding everything decided while the last was stored */
  private async write(account: string, log: AccountLog): Promise<void> {
    for (let chunk = log.next; chunk; chunk = log.next) {
      log.next = null;
      try {
        await this.store.append(account, chunk.entries);
      } catch (error) {
        this.abandon(account, log, chunk, error);
        break;
      }
      const last = chunk.entries[chunk.entries.length - 1];
      const s = log.stored;
      s.balance_micro = last.balance_after;
      s.earnings_micro = last.earnings_after;
      s.seq = last.id;
      chunk.resolve();
      // As the first chunk does, the next one takes what the rest of this turn of the event loop
      // decides: the answers that arrived with this write's end charge into it, not into a third
      // write (under load, chunks twice the size and half the writes, bench/README.md).
      if (log.next) await nextTurn();
    }
    log.writing = null;
  }

  /** a failed write: nothing decided from it on is acknowledged, and the account is read again from what landed */
  private abandon(account: string, log: AccountLog, failed: Chunk, error: unknown): void {
    failed.reject(error);
    log.next?.reject(error);
    log.next = null;
    this.logs.delete(account);
  }

  private open(account: string): Promise<AccountLog> {
    let opening = this.opening.get(account);
    if (!opening) {
      opening = this.store
        .open(account)
        .then((t) => {
          const log: AccountLog = { decided: { ...t }, stored: { ...t }, next: null, writing: null };
          this.logs.set(account, log);
          return log;
        })
        .finally(() => this.opening.delete(account));
      this.opening.set(account, opening);
    }
    return opening;
  }
}

function storedAccount({ stored }: AccountLog): Account {
  return { balance_micro: stored.balance_micro, earnings_micro: stored.earnings_micro };
}

function publicEntry({ balance_after, earnings_after, ...entry }: StoredEntry): LedgerEntry {
  void balance_after;
  void earnings_after;
  return entry;
}
