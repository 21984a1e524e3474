// Posts whose answer was lost: undone exactly once when they landed (a charge through the state's
// refund, a credit or an earning by a reversal), left alone when they did not, and kept until storage
// answers about them.
import { expect, it } from 'vitest';
import { Doubts, reversal } from '../../runtime/state/redis-doubts.ts';
import type { LedgerDraft } from '../../runtime/state/atomics.ts';

it('undoes a landed post once, ignores one that never landed, and waits while storage is away', async () => {
  // receipt → the id of the entry its post wrote
  const receipts = new Map([
    ['r1', 41],
    ['r3', 43],
    ['r4', 44],
  ]);
  const sent: Array<[string, LedgerDraft, string]> = [];
  const refunded = new Map<number, number>();
  const refunds: Array<[string, number, number]> = [];
  let away = true;
  const doubts = new Doubts(
    60_000,
    async (r) => {
      if (away) throw new Error('down');
      return receipts.get(r) ?? null;
    },
    async (account, draft, receipt) => {
      sent.push([account, draft, receipt]);
      receipts.set(receipt, 100 + sent.length);
      return { ...draft, id: 100 + sent.length, at: '' };
    },
    // the contract of Atomics.refund: never past the charge, whatever is asked
    async (account, chargeId, amount) => {
      const give = Math.min(amount, 1000 - (refunded.get(chargeId) ?? 0));
      if (give <= 0) return null;
      refunded.set(chargeId, (refunded.get(chargeId) ?? 0) + give);
      refunds.push([account, chargeId, give]);
      return { kind: 'credit', amount_micro: give, id: 200 + refunds.length, at: '' };
    },
  );
  const charge: LedgerDraft = { kind: 'charge', amount_micro: -1000, call_id: 'c1', endpoint_id: 'e' };
  doubts.add({ account: 'team-1', receipt: 'r1', draft: charge, at: Date.now() });
  doubts.add({ account: 'team-1', receipt: 'r2', draft: { kind: 'charge', amount_micro: -5 }, at: Date.now() });
  doubts.add({ account: 'team-1', receipt: 'r3', draft: charge, at: Date.now() - 60_000 }); // landed, but too old to settle: left alone
  doubts.add({ account: 'team-1', receipt: 'r4', draft: { kind: 'credit', amount_micro: 7 }, at: Date.now() });
  await doubts.settle();
  expect([sent, refunds]).toEqual([[], []]);
  away = false;
  await doubts.settle();
  expect(refunds).toEqual([['team-1', 41, 1000]]);
  expect(sent).toEqual([['team-1', { kind: 'charge', amount_micro: -7 }, 'r4:undo']]);
  // the same doubts again: the charge is refunded already, the credit's undo landed
  doubts.add({ account: 'team-1', receipt: 'r1', draft: charge, at: Date.now() });
  doubts.add({ account: 'team-1', receipt: 'r4', draft: { kind: 'credit', amount_micro: 7 }, at: Date.now() });
  await doubts.settle();
  expect([sent.length, refunds.length]).toEqual([1, 1]);
  expect(reversal({ kind: 'credit', amount_micro: 7 })).toEqual({ kind: 'charge', amount_micro: -7 });
  expect(reversal({ kind: 'earning', amount_micro: 7, tool_id: 't' })).toEqual({ kind: 'earning', amount_micro: -7, tool_id: 't' });
});
