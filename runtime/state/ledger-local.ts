// The ledger of one process (the only writer of its storage, so balances may be decided in memory).
// A post is decided at once against everything decided before it, then written with the other posts
// decided while the previous write was in flight, as one chunk record (group commit): the durable
// files pay one fsync per chunk instead of one per entry, and a chunk lands whole or not at all.
// A post is acknowledged only once its chunk is written; balances and pages show written entries only.
//
// Layout: `ledger:{account}:{first id}` holds the chunk's entries in id order, each carrying the
// balances after it; `account:{account}` is a checkpoint {balance, earnings, seq}, rewritten every
// CHECKPOINT_EVERY entries. Opening an account reads the checkpoint and rolls forward chunk by chunk.
// A record holding one entry object (not an array) is a one-entry chunk (the earlier layout).
import type { Storage } from 'unstorage';
import { nowIso } from '../util/clock.ts';
import type { Account, LedgerDraft, LedgerEntry } from './atomics.ts';

const CHECKPOINT_EVERY = 64;

interface StoredEntry extends LedgerEntry { balance_after: number; earnings_after: number }
interface Totals { balance_micro: number; earnings_micro: number; seq: number }

interface Chunk {
  entries: StoredEntry[];
  done: Promise<void>;
  settle: (error?: unknown) => void;
}

interface AccountLog {
  /** after every decided entry, written or not */
  decided: Totals;
  /** after every written entry */
  written: Totals;
  checkpoint: number;
  /** decided, waiting for the write in flight to end */
  next: Chunk | null;
  /** the writer loop, while one runs */
  writing: Promise<void> | null;
  /** first ids of the chunks this process wrote, in order (pages find older chunks by listing) */
  chunks: number[];
  /** the seq at open: chunks up to it are found by listing storage, once */
  openedAt: number;
  listed: Promise<number[]> | null;
}

const pad = (n: number) => String(n).padStart(12, '0');
const chunkKey = (account: string, first: number) => `ledger:${account}:${pad(first)}`;
const asEntries = (v: StoredEntry | StoredEntry[] | null): StoredEntry[] => (v === null ? [] : Array.isArray(v) ? v : [v]);

function newChunk(): Chunk {
  let settle!: Chunk['settle'];
  const done = new Promise<void>((resolve, reject) => { settle = (error) => (error === undefined ? resolve() : reject(error)); });
  // a chunk nobody awaits any more (its posts' callers went away) must not be an unhandled rejection
  done.catch(() => {});
  return { entries: [], done, settle };
}

export class LocalLedger {
  private logs = new Map<string, AccountLog>();
  private opening = new Map<string, Promise<AccountLog>>();

  constructor(private storage: Storage) {}

  post(account: string, draft: LedgerDraft): Promise<LedgerEntry | null> {
    if (!Number.isSafeInteger(draft.amount_micro)) throw new TypeError(`amount must be integer micro-USD, got ${draft.amount_micro}`);
    const log = this.logs.get(account);
    return log ? this.decide(account, log, draft) : this.open(account).then((l) => this.decide(account, l, draft));
  }

  async account(account: string): Promise<Account> {
    const { written } = this.logs.get(account) ?? (await this.open(account));
    return { balance_micro: written.balance_micro, earnings_micro: written.earnings_micro };
  }

  async entries(account: string, before: number | null, limit: number): Promise<{ entries: LedgerEntry[]; next: number | null }> {
    const log = this.logs.get(account) ?? (await this.open(account));
    const top = before === null ? log.written.seq : Math.min(before - 1, log.written.seq);
    const chunks = (await (log.listed ??= this.listChunks(account, log.openedAt))).concat(log.chunks);
    const entries: LedgerEntry[] = [];
    let id = top;
    // the chunks holding ids top, top-1, … newest first, until the page is full
    for (let c = lastAtOrBelow(chunks, top); c >= 0 && id >= 1 && entries.length < limit; c--) {
      const stored = asEntries(await this.storage.getItem<StoredEntry | StoredEntry[]>(chunkKey(account, chunks[c])));
      for (let i = stored.length - 1; i >= 0 && entries.length < limit; i--) {
        if (stored[i].id > id) continue;
        entries.push(publicEntry(stored[i]));
        id = stored[i].id - 1;
      }
    }
    return { entries, next: id >= 1 && entries.length ? id + 1 : null };
  }

  /** wait for every write in flight, then checkpoint each account, so the next open reads little */
  async flush(): Promise<void> {
    for (const [account, log] of this.logs) {
      while (log.writing) await log.writing;
      if (log.written.seq !== log.checkpoint) await this.checkpoint(account, log);
    }
  }

  private decide(account: string, log: AccountLog, draft: LedgerDraft): Promise<LedgerEntry | null> {
    const d = log.decided;
    const earning = draft.kind === 'earning';
    const balance = earning ? d.balance_micro : d.balance_micro + draft.amount_micro;
    const earnings = earning ? d.earnings_micro + draft.amount_micro : d.earnings_micro;
    if (balance < 0 || earnings < 0) return Promise.resolve(null);
    // Fixed-shape objects, not spreads of drafts whose optional fields vary (a hot spot under load);
    // an absent reference is undefined here and absent once written as JSON.
    const { kind, amount_micro, endpoint_id, call_id, tool_id } = draft;
    const id = d.seq + 1;
    const at = nowIso();
    const entry: LedgerEntry = { id, at, kind, amount_micro, endpoint_id, call_id, tool_id };
    d.balance_micro = balance; d.earnings_micro = earnings; d.seq = id;
    const chunk = (log.next ??= newChunk());
    chunk.entries.push({ id, at, kind, amount_micro, endpoint_id, call_id, tool_id, balance_after: balance, earnings_after: earnings });
    // The first chunk waits for the end of this turn of the event loop, so posts decided by other
    // requests in the same turn share its write.
    log.writing ??= new Promise<void>((resolve) => setImmediate(resolve)).then(() => this.write(account, log));
    return chunk.done.then(() => entry);
  }

  /** the writer loop: one chunk at a time, each holding everything decided while the last was written */
  private async write(account: string, log: AccountLog): Promise<void> {
    for (let chunk = log.next; chunk; chunk = log.next) {
      log.next = null;
      const first = chunk.entries[0].id;
      try {
        await this.storage.setItem(chunkKey(account, first), chunk.entries);
      } catch (error) {
        this.abandon(account, log, chunk, error);
        break;
      }
      const last = chunk.entries[chunk.entries.length - 1];
      const w = log.written;
      w.balance_micro = last.balance_after; w.earnings_micro = last.earnings_after; w.seq = last.id;
      log.chunks.push(first);
      chunk.settle();
      // the checkpoint only shortens the next open; a failed one is tried again after the next chunk
      if (log.written.seq - log.checkpoint >= CHECKPOINT_EVERY) await this.checkpoint(account, log).catch(() => {});
    }
    log.writing = null;
  }

  /** a failed write: nothing decided from it on is acknowledged, and the account is read again from what landed */
  private abandon(account: string, log: AccountLog, failed: Chunk, error: unknown): void {
    failed.settle(error);
    log.next?.settle(error);
    log.next = null;
    this.logs.delete(account);
  }

  private open(account: string): Promise<AccountLog> {
    let opening = this.opening.get(account);
    if (!opening) {
      opening = this.read(account).finally(() => this.opening.delete(account));
      this.opening.set(account, opening);
    }
    return opening;
  }

  /** the checkpoint plus every chunk written after it */
  private async read(account: string): Promise<AccountLog> {
    const stored = await this.storage.getItem<Totals>(`account:${account}`);
    const t: Totals = { balance_micro: stored?.balance_micro ?? 0, earnings_micro: stored?.earnings_micro ?? 0, seq: stored?.seq ?? 0 };
    const checkpoint = t.seq;
    for (;;) {
      const last = asEntries(await this.storage.getItem<StoredEntry | StoredEntry[]>(chunkKey(account, t.seq + 1))).at(-1);
      if (!last) break;
      t.seq = last.id; t.balance_micro = last.balance_after; t.earnings_micro = last.earnings_after;
    }
    const log: AccountLog = { decided: { ...t }, written: t, checkpoint, next: null, writing: null, chunks: [], openedAt: t.seq, listed: null };
    this.logs.set(account, log);
    return log;
  }

  private async listChunks(account: string, upTo: number): Promise<number[]> {
    const prefix = `ledger:${account}:`;
    const firsts = (await this.storage.getKeys(prefix))
      .filter((k) => k.startsWith(prefix))
      .map((k) => Number(k.slice(prefix.length)))
      .filter((n) => Number.isSafeInteger(n) && n >= 1 && n <= upTo);
    return firsts.sort((a, b) => a - b);
  }

  private async checkpoint(account: string, log: AccountLog): Promise<void> {
    const { balance_micro, earnings_micro, seq } = log.written;
    await this.storage.setItem(`account:${account}`, { balance_micro, earnings_micro, seq });
    log.checkpoint = seq;
  }
}

/** index of the last element ≤ n in an ascending array, or -1 */
function lastAtOrBelow(sorted: number[], n: number): number {
  let lo = 0, hi = sorted.length - 1, found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid] <= n) { found = mid; lo = mid + 1; } else hi = mid - 1;
  }
  return found;
}

function publicEntry({ balance_after, earnings_after, ...entry }: StoredEntry): LedgerEntry {
  void balance_after; void earnings_after;
  return entry;
}
