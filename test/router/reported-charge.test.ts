// Prices that correct themselves: where a provider's answer states what it charged
// (cost.reported_charge), the attempt is billed that figure at the catalog's price per unit, within
// what the call's ceiling left; the attempt names both figures, the entry's observed block counts the
// differences and `svc catalog drift` lists the operation. Serper (1 credit = 1,000 micro-USD a search,
// the credits it used stated in `credits`) against the real sandbox over loopback.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RuntimeCatalog } from '../../language/types.ts';
import { decideCharge, readReported } from '../../language/reported-charge.ts';
import { REAL_DIST } from '../helpers/paths.ts';
import { routedWorld, type RoutedWorld } from '../helpers/routed.ts';
import { chargesOf, expectBilledAsReported, expectCappedAttempt, expectReportedHit } from '../helpers/reported.ts';
import { svcCli } from '../helpers/cli.ts';
import { SUMMARY_TTL_MS } from '../../runtime/state/observations.ts';

const runtime = JSON.parse(readFileSync(join(REAL_DIST, 'catalog', 'runtime.json'), 'utf8')) as RuntimeCatalog;
const SERPER = 'serper.google.serp.organic';

describe('reading a reported charge', () => {
  it("credits convert at the catalog's price per credit; USD is USD", () => {
    expect(readReported(runtime.operations[SERPER], { body: { credits: 2 } })).toEqual({ value: 2, unit: 'credits', micro: 2000 });
    expect(readReported(runtime.operations['dataforseo.google.serp.organic'], { body: { cost: 0.0155 } })).toEqual({
      value: 0.0155,
      unit: 'usd',
      micro: 15500,
    });
    // a per-result price of 0.25 credit = 14,500 micro-USD: a credit is 58,000
    expect(readReported(runtime.operations['fullenrich.people.search'], { body: { metadata: { credits: 0.75 } } })?.micro).toBe(43500);
    // LeadMagic states credits_consumed; a validation it bills 0.25 credit is billed 0.25 × $0.024, whatever the list says
    expect(readReported(runtime.operations['leadmagic.people.email.verify'], { body: { credits_consumed: 0.25 } })?.micro).toBe(6000);
  });

  it('an answer stating nothing, or not a number, leaves the list price', () => {
    expect(decideCharge(runtime.operations[SERPER], 1000, { body: { organic: [] } }, 1_000_000)).toEqual({ micro: 1000, list_micro: 1000 });
    expect(decideCharge(runtime.operations[SERPER], 1000, { body: { credits: 'many' } }, 1_000_000)).toEqual({ micro: 1000, list_micro: 1000 });
    expect(decideCharge(runtime.operations[SERPER], 1000, { body: { credits: -1 } }, 1_000_000)).toEqual({ micro: 1000, list_micro: 1000 });
  });
});

describe('routed calls billed by what the provider reported', () => {
  let w: RoutedWorld;
  beforeAll(async () => {
    w = await routedWorld(REAL_DIST, { creditMicro: 1_000_000 });
  });
  afterAll(() => w.close());
  const serp = (q: string, headers: Record<string, string> = {}) => w.call('/proxy/google.serp.organic', { q }, { 'X-Svc-Route-Prefer': 'serper', ...headers });

  it('a report matching the list price bills the list price and names both figures', async () => {
    const r = await serp('coffee roasters');
    expectReportedHit(r, { endpoint_id: SERPER, list_micro: 1000, value: 1, unit: 'credits', micro: 1000 });
  });

  it("Serper reporting 2 credits where the list says 1: the caller is billed 2 credits, in the answer, the ledger and the sandbox's bill alike", async () => {
    await fetch(`${w.running.url}/_sandbox/reset`, { method: 'POST' });
    const r = await serp('coffee charge2-serper');
    await expectBilledAsReported(w, r, { endpoint_id: SERPER, list_micro: 1000, value: 2, unit: 'credits', micro: 2000 });
    expect(r.body._svc.cost_micro).toBe(2000);
    expect(r.headers.get('x-svc-cost-micro')).toBe('2000');
  });

  it('a report of 5 credits where the ceiling allowed 3 bills 3, and the attempt says it was capped', async () => {
    const r = await serp('tea charge5-serper', { 'X-Svc-Route-Max-Cost': '0.003' });
    expectCappedAttempt(r, { endpoint_id: SERPER, list_micro: 1000, value: 5, micro: 5000, cap_micro: 3000 });
    expect(r.body._svc.cost_micro).toBe(3000);
    expect((await chargesOf(w, r.body._svc.call_id)).map((e) => e.amount_micro)).toEqual([-3000]);
  });

  it("the entry's observed block counts how often and by how much reports differed", async () => {
    // a summary may be reused for a moment while attempts arrive (observations.ts SUMMARY_TTL_MS)
    await new Promise((r) => setTimeout(r, SUMMARY_TTL_MS + 50));
    const e = await w.call(`/catalog/endpoints/${SERPER}`);
    expect(e.body.endpoint.observed.charges).toEqual({ reports: 3, differed: 2, above: 2, below: 0, mean_delta_micro: 2500, mean_ratio: 3.5 });
  });

  it('GET /catalog/drift and `svc catalog drift` list the operation', async () => {
    const d = await w.call('/catalog/drift');
    expect(d.body.operations.map((o: { endpoint_id: string }) => o.endpoint_id)).toEqual([SERPER]);
    expect(d.body.operations[0]).toMatchObject({ reports: 3, differed: 2, share_differed: 0.667, reported_in: 'credits' });
    const cli = await svcCli(['catalog', 'drift'], { SVC_URL: w.url });
    expect(cli.code).toBe(0);
    expect(cli.stdout).toMatch(/^ID\s+LIST\s+REPORTS\s+DIFFERED/);
    expect(cli.stdout).toContain(SERPER);
    const asJson = JSON.parse((await svcCli(['catalog', 'drift', '--json'], { SVC_URL: w.url })).stdout);
    expect(asJson.operations[0].endpoint_id).toBe(SERPER);
  });

  it('a pass-through call is billed the reported figure too, with both figures in its headers', async () => {
    const r = await w.call('/proxy/serper/search', { q: 'pass charge3-serper' });
    expect(r.status).toBe(200);
    expect(r.headers.get('x-svc-cost-micro')).toBe('3000');
    expect(r.headers.get('x-svc-list-micro')).toBe('1000');
    expect(r.headers.get('x-svc-reported-micro')).toBe('3000');
  });
});
