// A row that fails in a way no row answers (a bug below the runner, not a refusal) breaks the batch's
// stream; the other workers must then start no further row, which would be charged with no line to
// show for it. The runner here is the scheduler's own parameter (what one row is), not a provider.
import { expect, it } from 'vitest';
import { runBatch, type RowRunner } from '../../runtime/batch/run.ts';

it('starts no row after one fails unexpectedly', async () => {
  const started: number[] = [];
  const runner: RowRunner = {
    dryRun: false,
    needs: async () => ({ least: 0, worst: 0 }),
    call: async (subject) => {
      const n = subject.n as number;
      started.push(n);
      await new Promise((resolve) => setTimeout(resolve, 5));
      if (n === 2) throw new Error('a bug, not a refusal');
      return { status: 200, output: {}, _svc: { served_by: 'x', cost_micro: 1 } };
    },
  };
  const rows = Array.from({ length: 40 }, (_, n) => ({ id: n, subject: { n } }));
  await expect(
    runBatch({ runner, limits: { maxCostMicro: null, concurrency: 4 }, emit: () => {}, signal: new AbortController().signal }, rows),
  ).rejects.toThrow('a bug');
  // let the other workers' rows in flight settle: none may start after the failure
  await new Promise((resolve) => setTimeout(resolve, 50));
  expect(started.length).toBeLessThanOrEqual(4 + 3);
});
