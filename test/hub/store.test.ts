// The hub's store over the state module's atomics (memory backend): run pages and tallies.
import { expect, it } from 'vitest';
import { createState } from '../../runtime/state/index.ts';
import { HubStore, RUNS_PAGE } from '../../runtime/hub/store.ts';

it('lists runs newest first a page at a time, and tallies runs and earnings per version', async () => {
  const state = await createState({ storage: { kind: 'memory' as const }, dataDir: '.', secret: 'x' });
  const store = new HubStore(state.atomics);
  for (let i = 1; i <= RUNS_PAGE + 5; i++) {
    await store.addRun('paged', {
      call_id: `c${i}`,
      version: i % 2 ? 1 : 2,
      team: 't',
      at: '2027-01-01T00:00:00.000Z',
      outcome: 'ok',
      price_micro: 10,
      steps_cost_micro: 1,
      ms: 1,
    });
  }
  const first = await store.runs('paged', null);
  expect(first.runs.map((r) => r.run)).toEqual(Array.from({ length: RUNS_PAGE }, (_, i) => RUNS_PAGE + 5 - i));
  expect(first.next_cursor).toBe('6');
  const second = await store.runs('paged', Number(first.next_cursor));
  expect(second.runs.map((r) => r.call_id)).toEqual(['c5', 'c4', 'c3', 'c2', 'c1']);
  expect(second.next_cursor).toBeNull();
  expect(await store.tally('paged', 1)).toEqual({ runs: 28, earnings_micro: 280 });
  expect(await store.tally('paged', 2)).toEqual({ runs: 27, earnings_micro: 270 });
  expect(await store.runs('no-runs', null)).toEqual({ runs: [], next_cursor: null });
});

it("finds a tool's newest live version reading from the newest down, not every version (a run reads this)", async () => {
  const state = await createState({ storage: { kind: 'memory' as const }, dataDir: '.', secret: 'x' });
  let reads = 0;
  const counted = new Proxy(state.atomics, {
    get: (target, key, receiver) => {
      const value = Reflect.get(target, key, receiver);
      if (typeof value !== 'function') return value;
      // a record is read through update (the store's consistent read)
      return (...args: unknown[]) => {
        if (key === 'update') reads++;
        return value.apply(target, args);
      };
    },
  });
  const store = new HubStore(counted);
  const files = { 'tool.json': '{}', 'input.schema.json': '{}', 'output.schema.json': '{}', 'check.json': '{}' };
  expect(await store.newestLive('many')).toBeNull();
  for (let i = 1; i <= 60; i++) await store.addVersion('many', files, 0);
  for (const n of [3, 57]) await store.updateVersion('many', n, (v) => ({ ...v, status: 'live', live_at: `2027-01-0${n === 3 ? 1 : 2}T00:00:00.000Z` }));
  reads = 0;
  expect((await store.newestLive('many'))?.version).toBe(57);
  expect(reads).toBe(4); // 60, 59, 58, 57
  expect((await store.versionsAfter('many', 57)).map((v) => v.version)).toEqual([58, 59, 60]);
  expect(await store.versionsAfter('many', 60)).toEqual([]);
});
