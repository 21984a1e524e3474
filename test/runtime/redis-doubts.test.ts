// Posts whose answer was lost: reversed exactly once when they landed, left alone when they did not,
// and kept until storage answers about them.
import { expect, it } from 'vitest';
import { Doubts, reversal } from '../../runtime/state/redis-doubts.ts';
import type { LedgerDraft } from '../../runtime/state/atomics.ts';

it('reverses a landed post once, ignores one that never landed, and waits while storage is away', async () => {
  const receipts = new Set(['r1', 'r3']);
  const sent: Array<[string, LedgerDraft, string]> = [];
  let away = true;
  const doubts = new Doubts(
    60_000,
    async (r) => { if (away) throw new Error('down'); return receipts.has(r); },
    async (account, draft, receipt) => { sent.push([account, draft, receipt]); receipts.add(receipt); return { ...draft, id: sent.length, at: '' }; },
  );
  const charge: LedgerDraft = { kind: 'charge', amount_micro: -1000, call_id: 'c1', endpoint_id: 'e' };
  doubts.add({ account: 'team-1', receipt: 'r1', draft: charge, at: Date.now() });
  doubts.add({ account: 'team-1', receipt: 'r2', draft: { kind: 'charge', amount_micro: -5 }, at: Date.now() });
  doubts.add({ account: 'team-1', receipt: 'r3', draft: charge, at: Date.now() - 60_000 }); // landed, but too old to settle: left alone
  await doubts.settle();
  expect(sent).toEqual([]);
  away = false;
  await doubts.settle();
  expect(sent).toEqual([['team-1', { kind: 'credit', amount_micro: 1000, call_id: 'c1', endpoint_id: 'e' }, 'r1:undo']]);
  doubts.add({ account: 'team-1', receipt: 'r1', draft: charge, at: Date.now() }); // the same doubt again: its undo landed
  await doubts.settle();
  expect(sent).toHaveLength(1);
  expect(reversal({ kind: 'credit', amount_micro: 7 })).toEqual({ kind: 'charge', amount_micro: -7 });
  expect(reversal({ kind: 'earning', amount_micro: 7, tool_id: 't' })).toEqual({ kind: 'earning', amount_micro: -7, tool_id: 't' });
});
