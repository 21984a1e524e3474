// Charges stated in a response header (cost.reported_charge.header): CompanyEnrich states the
// credits a call consumed in `x-credit-cost` (1 credit = 10,000 micro-USD in the catalog). Against
// the real sandbox over loopback, which answers that header from the catalog: a routed call and a
// pass-through call are billed the header's figure, name both figures, and the ledger row keeps them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RuntimeCatalog } from '../../language/types.ts';
import { readReported } from '../../language/reported-charge.ts';
import { REAL_DIST } from '../helpers/paths.ts';
import { routedWorld, type RoutedWorld } from '../helpers/routed.ts';
import { chargesOf, expectBilledAsReported, expectCappedAttempt } from '../helpers/reported.ts';

const runtime = JSON.parse(readFileSync(join(REAL_DIST, 'catalog', 'runtime.json'), 'utf8')) as RuntimeCatalog;
const CE = 'companyenrich.companies.enrich';

describe('reading a charge from a header', () => {
  it("the named header's figure converts at the catalog's price per unit; the body is not read", () => {
    expect(readReported(runtime.operations[CE], { body: { 'x-credit-cost': 9 }, headers: { 'x-credit-cost': '2' } })).toEqual({
      value: 2,
      unit: 'credits',
      micro: 20000,
    });
    // PDL's company credits, Wappalyzer's credits: each at its own operation's price per credit
    const pdl = runtime.operations['pdl.companies.enrich'];
    expect(readReported(pdl, { body: null, headers: { 'x-call-credits-spent': '1' } })).toEqual({ value: 1, unit: 'company credits', micro: pdl.price_micro });
    const wap = runtime.operations['wappalyzer.companies.enrich'];
    expect(readReported(wap, { body: {}, headers: { 'wappalyzer-credits-spent': '3' } })?.micro).toBe((3 * wap.price_micro) / wap.cost!.value);
  });

  it('no header, a header sent twice, or one that is not a number states nothing', () => {
    const op = runtime.operations[CE];
    expect(readReported(op, { body: { credits: 2 } })).toBeNull();
    expect(readReported(op, { body: {}, headers: { 'x-credit-cost': ['1', '2'] } })).toBeNull();
    expect(readReported(op, { body: {}, headers: { 'x-credit-cost': 'one' } })).toBeNull();
    expect(readReported(op, { body: {}, headers: { 'x-credit-cost': '' } })).toBeNull();
  });

  it('a figure too large to be money in micro-USD states nothing (the embedded ledger writes a row as JSON)', () => {
    const op = runtime.operations[CE];
    expect(readReported(op, { body: {}, headers: { 'x-credit-cost': '1e308' } })).toBeNull();
    expect(readReported(op, { body: {}, headers: { 'x-credit-cost': '1e6' } })?.micro).toBe(1e10);
  });
});

describe('a provider stating its charge in a header', () => {
  let w: RoutedWorld;
  beforeAll(async () => {
    w = await routedWorld(REAL_DIST, { creditMicro: 1_000_000 });
  });
  afterAll(() => w.close());
  const enrich = (domain: string, headers: Record<string, string> = {}) =>
    w.call('/proxy/companies.enrich', { domain }, { 'X-Svc-Route-Prefer': 'companyenrich', 'X-Svc-Route-Waterfall': 'false', ...headers });

  it('the sandbox answers the header, matching the list price when not steered', async () => {
    const r = await fetch(`${w.running.url}/companyenrich/companies/enrich?domain=stripe.com`, {
      headers: { authorization: `Bearer ${w.keys.companyenrich}` },
    });
    expect(r.status).toBe(200);
    expect(r.headers.get('x-credit-cost')).toBe('1');
  });

  it('a routed call reporting 3 credits where the list says 1 is billed 3, names both figures, and the ledger row keeps them', async () => {
    await fetch(`${w.running.url}/_sandbox/reset`, { method: 'POST' });
    const r = await enrich('charge3-companyenrich.com');
    expect(r.status).toBe(200);
    await expectBilledAsReported(w, r, { endpoint_id: CE, list_micro: 10000, value: 3, unit: 'credits', micro: 30000 });
    expect(r.headers.get('x-svc-cost-micro')).toBe('30000');
  });

  it('a report past what the ceiling left is billed the ceiling, and says so', async () => {
    const r = await enrich('charge5-companyenrich.com', { 'X-Svc-Route-Max-Cost': '0.02' });
    expectCappedAttempt(r, { endpoint_id: CE, list_micro: 10000, value: 5, micro: 50000, cap_micro: 20000 });
    const [row] = await chargesOf(w, r.body._svc.call_id);
    expect(row).toMatchObject({ amount_micro: -20000, list_micro: 10000, reported_micro: 50000, reported_value: 5 });
  });

  it("a pass-through call is billed the header's figure, with both figures in its headers and its ledger row", async () => {
    const r = await w.call('/proxy/companyenrich/companies/enrich?domain=charge2-companyenrich.com');
    expect(r.status).toBe(200);
    expect(r.headers.get('x-svc-cost-micro')).toBe('20000');
    expect(r.headers.get('x-svc-list-micro')).toBe('10000');
    expect(r.headers.get('x-svc-reported-micro')).toBe('20000');
    expect(r.headers.get('x-svc-cap-micro')).toBeNull();
    const callId = r.headers.get('x-svc-call-id')!;
    expect(await chargesOf(w, callId)).toEqual([
      expect.objectContaining({ endpoint_id: CE, amount_micro: -20000, list_micro: 10000, reported_micro: 20000, reported_unit: 'credits' }),
    ]);
  });

  it('a pass-through report past its X-Svc-Route-Max-Cost is capped there', async () => {
    const r = await w.call('/proxy/companyenrich/companies/enrich?domain=charge4-companyenrich.com', undefined, { 'X-Svc-Route-Max-Cost': '0.025' });
    expect(r.headers.get('x-svc-cost-micro')).toBe('25000');
    expect(r.headers.get('x-svc-reported-micro')).toBe('40000');
    expect(r.headers.get('x-svc-cap-micro')).toBe('25000');
  });
});
