// Who pays for misses, over the real catalog and the sandbox: on the capabilities whose seed says
// "only the serving child is paid", a call that every child misses pays at most one child, as the
// answer, the ledger and the sandbox's own billing all say, through both doors for routed calls.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RuntimeCatalog } from '../../language/types.ts';
import { billsMiss } from '../../language/prices.ts';
import { REAL_DIST } from '../helpers/paths.ts';
import { ledgerCharges, routedWorld, type RoutedWorld } from '../helpers/routed.ts';

const runtime = JSON.parse(readFileSync(join(REAL_DIST, 'catalog', 'runtime.json'), 'utf8')) as RuntimeCatalog;
let w: RoutedWorld;
beforeAll(async () => {
  w = await routedWorld(REAL_DIST, { creditMicro: 1_000_000_000 });
});
afterAll(() => w.close());

interface Tried {
  endpoint_id: string;
  outcome: string;
  reason?: string;
  cost_micro: number;
}
interface Answer {
  status: number;
  cost: number;
  body: { output: Record<string, unknown>; _svc: { served_by: string | null; tried: Tried[]; cost_micro: number; stopped?: string } };
}

/** `nohit` (not followed by '-') makes every provider of the sandbox miss. */
const UNFINDABLE: Record<string, Record<string, unknown>> = {
  'google.serp.organic': { q: 'zzqxv nohit phrase' },
  'youtube.video.comments': { video_id: 'nohitVideo1' },
  'companies.enrich': { domain: 'nohit.io' },
};

/** Through the Node fast path (an API token on the listening server). */
async function viaFastPath(cap: string, body: unknown): Promise<Answer> {
  const r = await w.through('node')(`/proxy/${cap}`, body);
  return { status: r.status, cost: Number(r.headers.get('x-svc-cost-micro')), body: r.body };
}

/** Through the h3 route: the same app, asked with a Web Request. */
async function viaApp(cap: string, body: unknown): Promise<Answer> {
  const r = await w.through('h3')(`/proxy/${cap}`, body);
  return { status: r.status, cost: Number(r.headers.get('x-svc-cost-micro')), body: r.body };
}

const charges = () => ledgerCharges(w);

/** What the sandbox billed since `before`, per endpoint. */
function billedSince(before: Record<string, { billed_micro: number }>, after: Record<string, { billed_micro: number }>): Record<string, number> {
  return Object.fromEntries(
    Object.entries(after)
      .map(([id, b]) => [id, b.billed_micro - (before[id]?.billed_micro ?? 0)])
      .filter(([, n]) => (n as number) > 0),
  );
}

describe.each(Object.keys(UNFINDABLE))('%s, every child missing', (cap) => {
  it.each([
    ['the fast path', viaFastPath],
    ['the h3 route', viaApp],
  ] as const)('pays at most one child through %s', async (_door, ask) => {
    const [ledgerBefore, sandboxBefore, balanceBefore] = [await charges(), await w.billing(), await w.ctx.state.balance(w.teamId)];
    const r = await ask(cap, UNFINDABLE[cap]);
    expect(r.status).toBe(200);
    expect(r.body._svc.served_by).toBeNull();
    const paid = r.body._svc.tried.filter((t) => t.cost_micro > 0);
    expect(paid.length).toBeLessThanOrEqual(1);
    expect(r.body._svc.tried.some((t) => t.outcome === 'miss')).toBe(true);
    expect(r.body._svc.tried.every((t) => t.outcome === 'miss' || t.outcome === 'skipped')).toBe(true);
    expect(r.cost).toBe(r.body._svc.cost_micro);
    expect(r.cost).toBe(paid.reduce((n, t) => n + t.cost_micro, 0));
    // the ledger (newest first): at most one new charge, of what the answer says
    const ledgerAfter = await charges();
    const added = ledgerAfter.slice(0, ledgerAfter.length - ledgerBefore.length);
    expect(added.length).toBe(paid.length);
    expect(added.map((e) => [e.endpoint_id, -e.amount_micro])).toEqual(paid.map((t) => [t.endpoint_id, t.cost_micro]));
    expect(balanceBefore - (await w.ctx.state.balance(w.teamId))).toBe(r.cost);
    // the provider side: the sandbox billed at most one child, the same amount
    const billed = billedSince(sandboxBefore, await w.billing());
    expect(Object.keys(billed).length).toBeLessThanOrEqual(1);
    expect(billed).toEqual(Object.fromEntries(paid.map((t) => [t.endpoint_id, t.cost_micro])));
  });
});

describe('why the waterfall stops', () => {
  it('a SERP query with no results is the answer: the first miss ends the call, saying so', async () => {
    const r = await viaFastPath('google.serp.organic', UNFINDABLE['google.serp.organic']);
    const called = r.body._svc.tried.filter((t) => t.outcome !== 'skipped');
    expect(called).toHaveLength(1);
    expect(called[0].outcome).toBe('miss');
    expect(r.body._svc.stopped).toBe('final_miss');
    expect(r.body.output.results).toEqual([]);
  });

  it('a video without comments: the free YouTube child answers the miss and nobody is paid', async () => {
    const r = await viaFastPath('youtube.video.comments', UNFINDABLE['youtube.video.comments']);
    expect(r.body._svc.tried.filter((t) => t.outcome !== 'skipped').map((t) => t.endpoint_id)).toEqual(['youtube.youtube.video.comments']);
    expect(r.body._svc).toMatchObject({ stopped: 'final_miss', cost_micro: 0 });
  });

  it('companies.enrich tries every child whose misses are free, then one that bills a miss, and skips the rest', async () => {
    const r = await viaFastPath('companies.enrich', UNFINDABLE['companies.enrich']);
    const tried = r.body._svc.tried;
    const billing = (t: Tried) => billsMiss(runtime.operations[t.endpoint_id]);
    const firstBilling = tried.findIndex(billing);
    expect(firstBilling).toBeGreaterThan(0);
    expect(tried.slice(0, firstBilling).every((t) => !billing(t) && t.outcome === 'miss')).toBe(true);
    expect(tried[firstBilling]).toMatchObject({ outcome: 'miss', cost_micro: runtime.operations[tried[firstBilling].endpoint_id].price_micro });
    const rest = tried.slice(firstBilling + 1).filter(billing);
    expect(rest.length).toBeGreaterThan(0);
    expect(rest.every((t) => t.outcome === 'skipped' && t.reason === 'billed_miss_limit')).toBe(true);
  });
});
