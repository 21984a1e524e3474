// Charges stated by The Companies API (`meta.cost` in its answers, credits at $0.0019 each in the
// catalog), by Wappalyzer's technology lookup (`wappalyzer-credits-spent`, $0.05 a credit) and by
// CompanyEnrich's batch enrich (`x-credit-cost`, $0.01 a credit). Against the real sandbox over
// loopback, which states the charge where the catalog says to read it: a routed call and
// pass-through calls are billed the stated figure and name both figures.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RuntimeCatalog } from '../../language/types.ts';
import { readReported } from '../../language/reported-charge.ts';
import { REAL_DIST } from '../helpers/paths.ts';
import { routedWorld, type RoutedWorld } from '../helpers/routed.ts';
import { chargesOf, expectBilledAsReported } from '../helpers/reported.ts';

const runtime = JSON.parse(readFileSync(join(REAL_DIST, 'catalog', 'runtime.json'), 'utf8')) as RuntimeCatalog;
const TCA = 'thecompaniesapi.companies.enrich';

describe('where these answers state their charge', () => {
  it('The Companies API: meta.cost of a company answer and of a paginated one, in credits', () => {
    expect(readReported(runtime.operations[TCA], { body: { domain: { domain: 'stripe.com' }, meta: { cost: 2, credits: 480 } } })).toEqual({
      value: 2,
      unit: 'credits',
      micro: 3800,
    });
    expect(readReported(runtime.operations['thecompaniesapi.companies.search'], { body: { companies: [], meta: { cost: 0, credits: 480 } } })).toEqual({
      value: 0,
      unit: 'credits',
      micro: 0,
    });
    // the remaining balance beside it is not a charge
    expect(readReported(runtime.operations[TCA], { body: { meta: { credits: 480 } } })).toBeNull();
  });

  it("Wappalyzer's technology lookup and CompanyEnrich's batch read their headers; a list order and a lookup by email state nothing", () => {
    expect(readReported(runtime.operations['wappalyzer.web.technologies'], { body: [], headers: { 'wappalyzer-credits-spent': '3' } })).toEqual({
      value: 3,
      unit: 'credits',
      micro: 150000,
    });
    expect(readReported(runtime.operations['companyenrich.companies.enrich.batch'], { body: [], headers: { 'x-credit-cost': '7' } })).toEqual({
      value: 7,
      unit: 'credits',
      micro: 70000,
    });
    expect(runtime.operations['wappalyzer.web.lists.create'].cost?.reported_charge).toBeUndefined();
    expect(runtime.operations['thecompaniesapi.companies.enrich.email'].cost?.reported_charge).toBeUndefined();
  });
});

describe('more providers stating their charge', () => {
  let w: RoutedWorld;
  beforeAll(async () => {
    w = await routedWorld(REAL_DIST, { creditMicro: 1_000_000 });
  });
  afterAll(() => w.close());

  it('a routed company lookup The Companies API says cost 3 credits is billed 3, names both figures, and the ledger row keeps them', async () => {
    await fetch(`${w.running.url}/_sandbox/reset`, { method: 'POST' });
    const r = await w.call(
      '/proxy/companies.enrich',
      { domain: 'charge3-thecompaniesapi.com' },
      { 'X-Svc-Route-Prefer': 'thecompaniesapi', 'X-Svc-Route-Waterfall': 'false' },
    );
    expect(r.status).toBe(200);
    await expectBilledAsReported(w, r, { endpoint_id: TCA, list_micro: 1900, value: 3, unit: 'credits', micro: 5700 });
  });

  it('the sandbox states the list price in meta.cost when not steered', async () => {
    const r = await fetch(`${w.running.url}/thecompaniesapi/v2/companies/stripe.com`, { headers: { authorization: `Basic ${w.keys.thecompaniesapi}` } });
    expect(r.status).toBe(200);
    expect(((await r.json()) as { meta: { cost: number } }).meta.cost).toBe(1);
  });

  /** a pass-through call's figures as its headers state them */
  const passThrough = async (path: string, body?: unknown) => {
    const r = await w.call(path, body);
    expect(r.status).toBe(200);
    const h = (name: string) => r.headers.get(`x-svc-${name}-micro`);
    return { cost: h('cost'), list: h('list'), reported: h('reported'), callId: r.headers.get('x-svc-call-id')! };
  };

  it('a pass-through search by name is billed its meta.cost', async () => {
    expect(await passThrough('/proxy/thecompaniesapi/v2/companies/by-name?name=charge2-thecompaniesapi')).toMatchObject({ cost: '3800', reported: '3800' });
  });

  it('a pass-through technology lookup is billed wappalyzer-credits-spent', async () => {
    const r = await passThrough('/proxy/wappalyzer/lookup/?urls=https://charge3-wappalyzer.com');
    expect(r).toMatchObject({ cost: '150000', list: '50000', reported: '150000' });
    expect(await chargesOf(w, r.callId)).toEqual([
      expect.objectContaining({ endpoint_id: 'wappalyzer.web.technologies', amount_micro: -150000, reported_value: 3, reported_unit: 'credits' }),
    ]);
  });

  it('a pass-through batch enrich is billed the x-credit-cost of the whole batch', async () => {
    expect(await passThrough('/proxy/companyenrich/companies/enrich/batch', { domains: ['stripe.com', 'charge4-companyenrich.com'] })).toMatchObject({
      cost: '40000',
      reported: '40000',
    });
  });
});
