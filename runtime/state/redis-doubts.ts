// Ledger posts whose answer was lost: Redis died or the connection dropped after the script was sent.
// The caller was told 503 ("nothing was charged"), so a post that did land is reversed once Redis
// answers again: its receipt (written by the same script) says whether it landed, and the reversal is
// an ordinary entry naming the same call, so the ledger shows both and the balance is as promised.
import type { LedgerDraft, LedgerEntry } from './atomics.ts';

export interface Doubt { account: string; receipt: string; draft: LedgerDraft; /** epoch ms of the post */ at: number }

const RETRY_MS = 1000;

/** the entry that undoes `draft`: a charge comes back as a credit, a credit goes as a charge, an earning is taken back */
export function reversal(draft: LedgerDraft): LedgerDraft {
  const kind = draft.kind === 'charge' ? 'credit' : draft.kind === 'credit' ? 'charge' : 'earning';
  return { ...draft, kind, amount_micro: -draft.amount_micro };
}

export class Doubts {
  private open: Doubt[] = [];
  private timer: NodeJS.Timeout | null = null;

  constructor(
    /** how long a receipt lives: a doubt older than this cannot be settled any more */
    private receiptMs: number,
    /** whether the receipt exists (throws while Redis is away) */
    private landed: (receipt: string) => Promise<boolean>,
    /** one post under the given receipt, with no doubt of its own taken when its answer is lost */
    private send: (account: string, draft: LedgerDraft, receipt: string) => Promise<LedgerEntry | null>,
  ) {}

  add(doubt: Doubt): void {
    this.open.push(doubt);
    this.timer ??= setTimeout(() => void this.settle(), RETRY_MS).unref();
  }

  /** check every open doubt once; those Redis cannot answer about yet stay for the next round */
  async settle(): Promise<void> {
    if (this.timer) { clearTimeout(this.timer); this.timer = null; }
    const doubts = this.open;
    this.open = [];
    for (const d of doubts) {
      if (Date.now() - d.at >= this.receiptMs) {
        process.stderr.write(`svc: cannot tell any more whether a ${d.draft.kind} of ${d.draft.amount_micro} micro-USD on ${d.account} (call ${d.draft.call_id ?? '-'}), answered 503, landed; its receipt expired while Redis was away. Check the ledger for it.\n`);
        continue;
      }
      try {
        if (!(await this.landed(d.receipt))) continue; // never landed: nothing to undo
        // the reversal's own receipt: a reversal whose answer was lost too is not sent twice
        const undo = `${d.receipt}:undo`;
        if (await this.landed(undo)) continue;
        const undone = await this.send(d.account, reversal(d.draft), undo);
        if (!undone) process.stderr.write(`svc: could not reverse a ${d.draft.kind} of ${d.draft.amount_micro} micro-USD on ${d.account} (call ${d.draft.call_id ?? '-'}) whose answer was lost; the balance does not allow it\n`);
      } catch {
        this.open.push(d);
      }
    }
    if (this.open.length) this.timer ??= setTimeout(() => void this.settle(), RETRY_MS).unref();
  }
}
