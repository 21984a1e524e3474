// A hub run's earning, made certain once the caller's charge landed. The charge and the maker's
// earning are two ledger writes on two accounts (two files, two Redis keys), so no one write holds
// both. Before the charge an "earning due" record naming both is stored, and removed once the earning
// is posted. One left behind (svc died between the two writes, or storage stopped answering) is
// settled by repair: at start, and again while storage is away. Repair pays what the caller's ledger
// shows charged for the call less what the maker's ledger shows earned for it, so settling a record
// twice pays once. Money still moves only through Spending.pay.
import { randomUUID } from 'node:crypto';
import { isStorageOutage } from '../state/unavailable.ts';
import { now } from '../util/clock.ts';
import type { Spending } from './spending.ts';
import type { LedgerEntry, State } from '../state/index.ts';

export interface Due {
  maker: number;
  caller: number;
  amount_micro: number;
  /** the tool and version (`id@N`) the caller's charge names */
  tool_id: string;
  call_id: string;
}

interface DueRecord extends Due {
  /** epoch ms the record was stored: the ledgers are read back to about then */
  at: number;
  /** the process and the instance in it holding the record, the token of its hold, and until when (epoch ms) it holds */
  process: string;
  holder: string;
  lease: string;
  lease_until: number;
}

const PREFIX = 'earning-due';
/** this process: on the single-writer stores, a hold of any other process is a dead one's */
const PROCESS = randomUUID();
const keyOf = (callId: string) => `${PREFIX}:${callId}`;
/** how long a hold keeps other instances off a record: far past the few writes between its storing and removal */
export const LEASE_MS = 10 * 60_000;
/** after an outage, or while posts whose answer was lost are still in doubt */
const RETRY_MS = 5000;
/** entry times come from each instance's clock; a minute covers their drift */
const SKEW_MS = 60_000;
/** how far back a ledger is read at most (LEDGER_PAGE entries a page) */
const MAX_PAGES = 200;

export class EarningsDue {
  private me = randomUUID();
  /** calls whose run, in this process, is between storing the record and removing it */
  private running = new Set<string>();
  private timer: { handle: NodeJS.Timeout; at: number } | null = null;
  private rounds: Promise<void> = Promise.resolve();

  constructor(
    private state: State,
    private spending: Spending,
  ) {}

  /**
   * Store the due record, then `charge` the caller (answering what was charged); the run holds the
   * record until `pay`. A charge that throws leaves the record to repair, which pays only a charge
   * the caller's ledger shows (a charge whose answer was lost is refunded by the state if it landed).
   */
  async charge(due: Due, charge: () => Promise<number>): Promise<number> {
    if (due.amount_micro === 0) return charge();
    this.running.add(due.call_id);
    try {
      const at = now();
      await this.state.atomics.claim<DueRecord>(keyOf(due.call_id), {
        ...due,
        at,
        process: PROCESS,
        holder: this.me,
        lease: randomUUID(),
        lease_until: at + LEASE_MS,
      });
      return await charge();
    } catch (e) {
      this.release(due.call_id);
      throw e;
    }
  }

  /** Pay the maker what was charged (0: nothing landed) and remove the record; storage failing leaves it to repair. */
  async pay(due: Due, charged: number): Promise<void> {
    if (due.amount_micro === 0) return;
    try {
      await this.spending.pay(due.maker, charged, { tool_id: due.tool_id, call_id: due.call_id });
      await this.state.atomics.remove(keyOf(due.call_id));
      this.running.delete(due.call_id);
    } catch (e) {
      this.release(due.call_id);
      throw e;
    }
  }

  /**
   * Settle every record no live run holds. Rounds of one instance run one after another; one asked
   * for during another runs after it, as it may be for a record the running round listed too early.
   */
  settle(): Promise<void> {
    const round = this.rounds.then(() => this.settleAll());
    this.rounds = round.catch(() => {});
    return round;
  }

  private release(callId: string): void {
    this.running.delete(callId);
    this.wake(RETRY_MS);
  }

  /** a round in `ms` (an earlier one planned stands) */
  private wake(ms: number): void {
    const at = Date.now() + ms;
    if (this.timer && this.timer.at <= at) return;
    if (this.timer) clearTimeout(this.timer.handle);
    this.timer = {
      at,
      handle: setTimeout(() => {
        this.timer = null;
        void this.settle().catch(logFailure);
      }, ms).unref(),
    };
  }

  private async settleAll(): Promise<void> {
    try {
      // Posts whose answer was lost are settled (a landed charge refunded, an earning reversed)
      // before any record is: until then the ledger may show a charge that is about to be given back.
      if (!(await this.state.atomics.doubtsSettled())) {
        this.wake(RETRY_MS);
        return;
      }
      for (const key of await this.state.atomics.keys(PREFIX)) {
        const wait = await this.settleOne(key);
        if (wait !== null) this.wake(wait);
      }
    } catch (e) {
      if (!isStorageOutage(e)) throw e;
      this.wake(RETRY_MS);
    }
  }

  /** null when settled or gone; else the ms until another instance's hold on it ends */
  private async settleOne(key: string): Promise<number | null> {
    const at = now();
    const lease = randomUUID();
    const record = await this.state.atomics.update<DueRecord>(key, (d) =>
      d && this.mayTake(d, at) ? { ...d, process: PROCESS, holder: this.me, lease, lease_until: at + LEASE_MS } : undefined,
    );
    if (!record) return null;
    if (record.lease !== lease) return this.running.has(record.call_id) ? null : Math.max(0, record.lease_until - at);
    const owed = await this.owed(record);
    if (owed === null) {
      process.stderr.write(
        `svc: cannot tell whether the maker's earning of ${record.amount_micro} micro-USD for ${record.call_id} is owed: its charge is past the ledger read back; the record ${key} stays for an operator\n`,
      );
      return null;
    }
    if (owed > 0) await this.spending.pay(record.maker, owed, { tool_id: record.tool_id, call_id: record.call_id });
    await this.state.atomics.remove(key);
    return null;
  }

  /**
   * Not a run of this instance in flight, and held by none other: this instance's own (its run gave
   * up), a hold run out, or, on the embedded and memory stores (one process each), another process's.
   */
  private mayTake(d: DueRecord, at: number): boolean {
    return !this.running.has(d.call_id) && (d.holder === this.me || d.lease_until <= at || (this.state.kind !== 'redis' && d.process !== PROCESS));
  }

  /** what the caller was charged for the call (refunds taken off) less what the maker earned for it; null when the ledger is too long to tell */
  private async owed(d: DueRecord): Promise<number | null> {
    const charged = await this.sum(d.caller, d, (e) => e.kind !== 'earning' && e.tool_id === d.tool_id);
    if (charged === null) return null;
    if (charged >= 0) return 0; // nothing charged, or refunded in full
    const earned = await this.sum(d.maker, d, (e) => e.kind === 'earning');
    return earned === null ? null : Math.max(0, -charged - earned);
  }

  /**
   * The call's entries of the account that `match`, summed. Both were written after the record was
   * stored (by the run, or by an earlier repair), so the read stops at entries older than the record:
   * only what the account did since, normally a few entries, at most MAX_PAGES pages (null past that).
   */
  private async sum(teamId: number, d: DueRecord, match: (e: LedgerEntry) => boolean): Promise<number | null> {
    const since = d.at - SKEW_MS;
    let total = 0;
    let cursor: string | null = null;
    for (let page = 0; page < MAX_PAGES; page++) {
      const read: { entries: LedgerEntry[]; next_cursor: string | null } = await this.state.ledger(teamId, cursor);
      for (const e of read.entries) {
        if (Date.parse(e.at) < since) return total;
        if (e.call_id === d.call_id && match(e)) total += e.amount_micro;
      }
      if (read.next_cursor === null) return total;
      cursor = read.next_cursor;
    }
    return null;
  }
}

/** a repair that failed other than by an outage (which is retried): said, and tried again at the next start */
export function logFailure(e: unknown): void {
  process.stderr.write(`svc: settling hub earnings due failed (${e instanceof Error ? e.message : String(e)})\n`);
}
