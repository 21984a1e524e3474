// Ledger posts whose answer was lost: Redis died or the connection dropped after the script was sent.
// The caller was told 503 ("nothing was charged"), so a post that did land is reversed once Redis
// answers again: its receipt (written by the same script) says whether it landed, and which entry it
// wrote. A charge comes back through the state's one refund (a credit naming the same call, never
// more than the charge, given once however often it is sent); a credit or an earning is reversed by
// an ordinary entry. Either way the ledger shows both and the balance is as promised.
import type { LedgerDraft, LedgerEntry } from './atomics.ts';

export interface Doubt {
  account: string;
  receipt: string;
  draft: LedgerDraft /** epoch ms of the post */;
  at: number;
}

const RETRY_MS = 1000;

/** the entry that undoes a credit (a charge) or an earning (an earning taken back); charges are refunded instead */
export function reversal(draft: LedgerDraft): LedgerDraft {
  return { ...draft, kind: draft.kind === 'credit' ? 'charge' : 'earning', amount_micro: -draft.amount_micro };
}

export class Doubts {
  private open: Doubt[] = [];
  private timer: NodeJS.Timeout | null = null;

  constructor(
    /** how long a receipt lives: a doubt older than this cannot be settled any more */
    private receiptMs: number,
    /** the id of the entry the receipt's post wrote, null when it wrote none (throws while Redis is away) */
    private landed: (receipt: string) => Promise<number | null>,
    /** one post under the given receipt, with no doubt of its own taken when its answer is lost */
    private send: (account: string, draft: LedgerDraft, receipt: string) => Promise<LedgerEntry | null>,
    /** the state's refund of a charge entry (Atomics.refund) */
    private refund: (account: string, chargeId: number, amount: number) => Promise<LedgerEntry | null>,
    /** a doubt settled: no other instance need settle it (redis-lease.ts) */
    private settled: (receipt: string) => Promise<unknown> = async () => {},
  ) {}

  /** true when no post is waiting to be checked */
  none(): boolean {
    return this.open.length === 0;
  }

  add(doubt: Doubt): void {
    this.open.push(doubt);
    this.timer ??= setTimeout(() => void this.settle(), RETRY_MS).unref();
  }

  /** check every open doubt once; those Redis cannot answer about yet stay for the next round */
  async settle(): Promise<void> {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    const doubts = this.open;
    this.open = [];
    for (const d of doubts) {
      if (Date.now() - d.at >= this.receiptMs) {
        process.stderr.write(
          `svc: cannot tell any more whether a ${d.draft.kind} of ${d.draft.amount_micro} micro-USD on ${d.account} (call ${d.draft.call_id ?? '-'}), answered 503, landed; its receipt expired while Redis was away. Check the ledger for it.\n`,
        );
        continue;
      }
      try {
        const id = await this.landed(d.receipt);
        if (id !== null) await this.undo(d, id); // null: never landed, nothing to undo
        await this.settled(d.receipt);
      } catch {
        this.open.push(d);
      }
    }
    if (this.open.length) this.timer ??= setTimeout(() => void this.settle(), RETRY_MS).unref();
  }

  /** A landed charge is refunded (given back at most once however often sent); a credit or an earning is reversed under a receipt of its own, so a reversal whose answer was lost too is not sent twice. */
  private async undo(d: Doubt, entryId: number): Promise<void> {
    if (d.draft.kind === 'charge') {
      await this.refund(d.account, entryId, -d.draft.amount_micro);
      return;
    }
    const undo = `${d.receipt}:undo`;
    if ((await this.landed(undo)) !== null) return;
    if (!(await this.send(d.account, reversal(d.draft), undo)))
      process.stderr.write(
        `svc: could not reverse a ${d.draft.kind} of ${d.draft.amount_micro} micro-USD on ${d.account} (call ${d.draft.call_id ?? '-'}) whose answer was lost; the balance does not allow it\n`,
      );
  }
}
