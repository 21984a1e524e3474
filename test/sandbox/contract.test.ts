// One contract suite over every routed child of every catalog the sandbox may serve: a hit reads as a
// contract hit, `nohit-<service>` answers the child's own miss form, a bad key the provider's 401,
// billing counts add up, async children go progress -> success, and the steering faults behave.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { CapabilitySrc, OperationRuntime, RuntimeCatalog } from '../../language/types.ts';
import { createSandbox, startSandbox, type BillingCounts, type RunningSandbox } from '../../sandbox/index.ts';
import { suiteCatalogs } from './catalogs.ts';
import { carries, ChildCaller, expectedCharge, subjectFor } from './child-calls.ts';
import { send } from './provider-request.ts';
import { exchangeCredentials } from '../../runtime/router/token-exchange.ts';

const catalogs = await suiteCatalogs();

/** Operations of the same provider answering the same method and path (one upstream call). */
function twins(runtime: RuntimeCatalog, op: OperationRuntime): string[] {
  return Object.values(runtime.operations)
    .filter((o) => o.provider === op.provider && o.method === op.method && o.path === op.path && o.endpoint_id !== op.endpoint_id)
    .map((o) => o.endpoint_id);
}

/** What a call places: the key, or for a provider that exchanges it (auth.exchange) a token from the sandbox's token endpoint. */
async function placedKeys(runtime: RuntimeCatalog, keys: Record<string, string>, url: string): Promise<Record<string, string>> {
  const placed = { ...keys };
  for (const p of Object.values(runtime.providers)) {
    if (p.auth.exchange)
      placed[p.service] = (
        await exchangeCredentials(p, keys[p.service], { [`SVC_BASE_${p.service.toUpperCase()}`]: `${url}/${p.service}` }, 5000, 1_000_000)
      ).token;
  }
  return placed;
}

const total = (b: BillingCounts): { calls: number; billed_micro: number } =>
  Object.values(b).reduce((t, r) => ({ calls: t.calls + r.calls, billed_micro: t.billed_micro + r.billed_micro }), { calls: 0, billed_micro: 0 });

describe.each(catalogs)('sandbox over the $label catalog', ({ runtime, sources }) => {
  const keys = Object.fromEntries(Object.keys(runtime.providers).map((s) => [s, `sk-test-${s}:secret-${s}`]));
  const sandbox = createSandbox(runtime, { keys, stallMs: 30_000 });
  let running: RunningSandbox;
  let caller: ChildCaller;
  beforeAll(async () => {
    running = await startSandbox(sandbox, 0);
    caller = new ChildCaller(running.url, runtime, await placedKeys(runtime, keys, running.url));
  });
  afterAll(async () => {
    await running.close();
  });

  const children = Object.values(runtime.capabilities).flatMap((cap) => cap.children.map((id) => ({ id, cap: cap as CapabilitySrc })));
  const billing = async (): Promise<BillingCounts> =>
    (await send(running.url, '_sandbox', { method: 'GET', path: '/billing', query: new URLSearchParams(), headers: {} })).json as BillingCounts;

  // Deciding which cases apply needs no server: a child whose request cannot carry a steering word
  // (a transform keeps only digits, say) gets no steering cases, a synchronous one no async case.
  const planner = new ChildCaller('', runtime, keys);
  describe.each(children)('$id', ({ id, cap }) => {
    const op = runtime.operations[id];
    const src = sources.get(id);
    const steerable = carries(planner, op, cap, src, `nohit-${op.provider}`);
    beforeEach(() => {
      sandbox.reset();
    });

    it('answers a hit that maps to a contract hit, the same for the same request', async () => {
      const a = await caller.answer(op, cap, src);
      expect(a.status, JSON.stringify(a.json)).toBe(200);
      expect(a.verdict, JSON.stringify(a.output)).toBe('hit');
      const b = await caller.answer(op, cap, src);
      if (!op.async) expect(b.json).toEqual(a.json);
    });

    if (steerable)
      it(`answers its own miss form to nohit-${op.provider} and to a bare nohit`, async () => {
        for (const word of [`nohit-${op.provider}`, 'nohit']) {
          const a = await caller.answer(op, cap, src, word);
          expect(a.verdict, `${word}: ${a.status} ${JSON.stringify(a.json).slice(0, 300)}`).toBe('miss');
          if (op.miss?.status?.length && a.status !== 200) expect(op.miss.status).toContain(a.status);
        }
        expect((await caller.answer(op, cap, src, 'nohit-someoneelse')).verdict).toBe('hit');
      });

    it("answers the provider's unauthorized form to a wrong or a missing key", async () => {
      const expected = runtime.providers[op.provider].errors?.unauthorized ?? { status: 401, body: { error: 'unauthorized' } };
      const wrong = caller.call(op, src, subjectFor(cap, src), 'wrong:key');
      const none = { ...caller.call(op, src, subjectFor(cap, src), 'x'), headers: {} };
      for (const [k] of [...none.query]) if (none.query.get(k) === 'x') none.query.delete(k);
      for (const call of [wrong, none]) {
        const res = await send(running.url, op.provider, call);
        expect(res.status).toBe(expected.status);
        expect(res.json).toEqual(expected.body);
      }
    });

    if (steerable)
      it('bills a hit and a miss exactly by its billing rule', async () => {
        const hit = await caller.answer(op, cap, src, undefined, 2);
        const miss = await caller.answer(op, cap, src, `nohit-${op.provider}`);
        const want: BillingCounts = {};
        for (const a of [hit, miss]) {
          const micro = expectedCharge(op, a.verdict, a.rows);
          if (micro === null) continue;
          want[id] ??= { calls: 0, billed_micro: 0 };
          want[id].calls += 1;
          want[id].billed_micro += micro;
        }
        if (op.cost?.type === 'per_result') expect(hit.rows).toBeLessThanOrEqual(2);
        const got = await billing();
        // an operation sharing its method and path with a twin whose request is the same may be billed
        // under the twin's id; the totals still reconcile
        if (twins(runtime, op).some((t) => got[t])) expect(total(got)).toEqual(total(want));
        else expect(got).toEqual(want);
      });

    if (op.async)
      it('goes progress -> success over the async block, billed once', async () => {
        const a = await caller.answer(op, cap, src);
        const s = op.async!.status;
        expect(s.progress).toContain(a.statuses![0]);
        expect(s.progress).toContain(a.statuses![1]);
        expect(s.success).toContain(a.statuses!.at(-1));
        const got = await billing();
        expect(total(got)).toEqual(
          total(expectedCharge(op, 'hit', a.rows) === null ? {} : { [id]: { calls: 1, billed_micro: expectedCharge(op, 'hit', a.rows)! } }),
        );
      });
  });

  const firstChildren = [
    ...new Map(
      children
        .filter((c) => carries(planner, runtime.operations[c.id], c.cap, sources.get(c.id), `fail-${runtime.operations[c.id].provider}`))
        .map((c) => [runtime.operations[c.id].provider, c]),
    ).values(),
  ];
  describe.concurrent('steering faults, one child per provider', () => {
    it.for(firstChildren)(
      '$id: fail -> 500, garbage -> unparsable 200, reset and slow -> no answer, none billed; latency<N>ms delays a hit',
      async ({ id, cap }, ctx) => {
        const op = runtime.operations[id];
        const src = sources.get(id);
        const steered = (word: string, timeoutMs = 2000) => send(running.url, op.provider, caller.call(op, src, subjectFor(cap, src, word)), timeoutMs);
        const { expect } = ctx;
        const before = (await billing())[id];
        expect((await steered(`fail-${op.provider}`)).status).toBe(500);
        const garbage = await steered(`garbage-${op.provider}`);
        expect(garbage.status).toBe(200);
        expect(garbage.json).toBeUndefined();
        await expect(steered(`reset-${op.provider}`)).rejects.toThrow();
        const t0 = Date.now();
        await expect(steered(`slow-${op.provider}`, 250)).rejects.toThrow();
        expect(Date.now() - t0).toBeGreaterThanOrEqual(200);
        expect((await billing())[id]).toEqual(before);
        const t1 = Date.now();
        const a = await caller.answer(op, cap, src, `latency120ms-${op.provider}`);
        expect(Date.now() - t1).toBeGreaterThanOrEqual(110);
        expect(a.verdict).toBe('hit');
      },
    );
  });
});
