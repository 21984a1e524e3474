// Prices and billing rules of the real catalog that the providers' own pages settle (issue 16), read
// from the built output, so a YAML edit that brings an old figure back fails here.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CatalogEntry, OperationRuntime, RuntimeCatalog } from '../../language/types.ts';
import { REAL_DIST } from '../helpers/paths.ts';
import { chargeMicro, worstCostMicro } from '../../language/prices.ts';
import { buildChildRequest } from '../../runtime/router/build-request.ts';

const dist = join(REAL_DIST, 'catalog');
const runtime = JSON.parse(readFileSync(join(dist, 'runtime.json'), 'utf8')) as RuntimeCatalog;
const op = (id: string): OperationRuntime => runtime.operations[id];
/** an operation's price as its entry publishes it, with the words it rests on (runtime.json keeps the figures only) */
const published = (id: string) => (JSON.parse(readFileSync(join(dist, 'endpoints', `${id}.json`), 'utf8')) as CatalogEntry).endpoint.cost!;

describe("prices from the providers' own pages", () => {
  it('Lusha searches bill 1 credit per started block of 25 results and 1 credit for an empty answer; its lookups bill no miss', () => {
    for (const id of ['lusha.people.search', 'lusha.companies.search']) {
      expect(op(id).price_micro, id).toBe(90_000);
      expect(
        [1, 3, 25, 26, 50].map((rows) => chargeMicro(op(id), 'hit', rows)),
        id,
      ).toEqual([90_000, 90_000, 90_000, 180_000, 180_000]);
      expect(chargeMicro(op(id), 'miss', 0), id).toBe(90_000);
      expect(published(id).evidence?.quote, id).toMatch(/1 credit per 1–25 results/);
    }
    for (const id of ['lusha.people.enrich', 'lusha.people.email.find', 'lusha.people.phone.find', 'lusha.companies.enrich'])
      expect(chargeMicro(op(id), 'miss', 0), id).toBe(0);
  });

  it('LeadMagic email validation is 0.25 credit, quoted from its own repository', () => {
    const verify = op('leadmagic.people.email.verify');
    expect(verify.cost).toMatchObject({ value: 0.25, usd: 0.006, source: 'documented' });
    expect(published('leadmagic.people.email.verify').evidence?.url).toMatch(/github\.com\/LeadMagic\/leadmagic-openapi/);
  });

  it("Ocean's person enrichment names both of Ocean's readings and bills the dearer", () => {
    const enrich = published('ocean.people.enrich');
    expect(enrich).toMatchObject({ value: 3, usd: 0.06, source: 'documented' });
    expect(enrich.evidence?.quote).toMatch(/Cost: 3 credits/);
    expect(enrich.conflict.map((c) => c.quote)).toEqual([expect.stringMatching(/0\.2 credits per company\/contact/)]);
  });

  it('Hunter Domain Search bills one credit per started block of 10 emails', () => {
    const hunter = op('hunter.people.search');
    expect([1, 10, 11, 52].map((rows) => chargeMicro(hunter, 'hit', rows))).toEqual([24_500, 24_500, 49_000, 147_000]);
    expect(chargeMicro(hunter, 'miss', 0)).toBe(0);
  });

  it('Coresignal bills 20 credits a multi-source record and nothing for an empty search', () => {
    for (const id of ['coresignal.companies.enrich', 'coresignal.people.enrich']) expect(op(id).cost).toMatchObject({ value: 20, usd: 0.392 });
    for (const id of ['coresignal.companies.search', 'coresignal.people.search']) expect(op(id).bills_miss, id).toBe(false);
    for (const id of ['coresignal.companies.search.ids', 'coresignal.jobs.search']) expect(op(id).cost?.type, id).toBe('free');
  });

  it('other prices the pages settle', () => {
    expect(op('thecompaniesapi.companies.enrich').cost?.usd).toBe(0.0019);
    // Fresh's two copies of its credit page disagree (2 credits against 1): the dearer is billed, the other named
    expect(op('freshli.people.enrich').cost).toMatchObject({ value: 2, usd: 0.02 });
    expect(published('freshli.people.enrich').conflict).toEqual([expect.objectContaining({ quote: expect.stringMatching(/1 credit/) })]);
    for (const id of ['rocketreach.people.search', 'rocketreach.companies.search']) expect(op(id).cost?.type, id).toBe('free');
    // Snov bills an unknown email but not an invalid one
    expect(op('snov.people.email.find').miss?.when).toEqual([{ path: 'result[0].smtp_status', in: ['not_valid'] }]);
  });

  it('Tomba counts a Domain Search with results even when the contract calls it a miss (no organisation name)', () => {
    const tomba = op('tomba.companies.enrich');
    expect(tomba.bills_contract_miss).toBe(true);
    expect([chargeMicro(tomba, 'miss', 0), chargeMicro(tomba, 'contract_miss', 0), chargeMicro(tomba, 'hit', 1)]).toEqual([0, 39_000, 39_000]);
  });

  it("Serper's routed child asks for one page of 10 results, the page the 1 credit it holds buys", () => {
    const serper = op('serper.google.serp.organic');
    const sent = (limit: number) => JSON.parse(buildChildRequest(serper, runtime.providers.serper, serper.request!, { q: 'coffee', limit }, 'k', {}).body!).num;
    expect([sent(5), sent(10), sent(11), sent(100)]).toEqual([5, 10, 10, 10]);
    // what the plan holds for the deepest call the contract allows is that one credit
    expect(serper.price_micro).toBe(1_000);
    const deepest = runtime.capabilities['google.serp.organic']?.filters?.limit?.max;
    expect(deepest).toBe(100);
    expect(worstCostMicro(serper, deepest!)).toBe(1_000);
    // a pass-through call may still ask for 100, and is billed the credits Serper's answer states
    expect(serper.input.body?.num?.max).toBe(100);
    expect(serper.cost?.reported_charge).toEqual({ path: 'credits', unit: 'credits' });
  });

  it("RocketReach's person lookups bill the dearer reading (universal credits), naming RocketReach's own 1-credit reading", () => {
    for (const [id, value] of [
      ['rocketreach.people.email.find', 2],
      ['rocketreach.people.phone.find', 6],
    ] as const) {
      const cost = published(id);
      expect(op(id).cost, id).toMatchObject({ value, usd: value / 10, source: 'third_party' });
      expect(cost.evidence?.quote, id).toMatch(new RegExp(`${value} credits`));
      expect(
        cost.conflict.map((c) => c.url),
        id,
      ).toEqual([expect.stringMatching(/github\.com\/rocketreach\/rocketreach-mcp-plugin/), 'https://docs.rocketreach.co/reference/faq.md']);
      expect(cost.conflict[0].quote, id).toMatch(/1 lookup credit/);
    }
  });

  it('children that send one request share its billing rule', () => {
    const rule = (id: string) => ({
      price: op(id).price_micro,
      type: op(id).cost?.type,
      bills_miss: op(id).bills_miss,
      bills_contract_miss: op(id).bills_contract_miss,
      when: op(id).miss?.when,
    });
    expect(rule('dropcontact.people.enrich')).toEqual(rule('dropcontact.people.email.find'));
    expect(rule('tomba.companies.enrich')).toEqual(rule('tomba.people.search'));
  });

  it("more routed children than before are priced from the provider's own page", () => {
    const children = Object.values(runtime.capabilities).flatMap((c) => c.children);
    const documented = children.filter((id) => op(id).cost?.source === 'documented');
    expect(documented.length).toBeGreaterThan(22);
  });

  it('every usd_per_hit in the routing plans is a whole number of micro-USD', () => {
    const noisy: string[] = [];
    for (const cap of Object.keys(runtime.capabilities)) {
      const entry = JSON.parse(readFileSync(join(dist, 'endpoints', `svc.${cap}.json`), 'utf8')) as CatalogEntry;
      for (const p of entry.routing!.plan)
        if (p.usd_per_hit !== null && !/^\d+(\.\d{1,6})?$/.test(String(p.usd_per_hit))) noisy.push(`${p.endpoint_id}: ${p.usd_per_hit}`);
    }
    expect(noisy).toEqual([]);
  });
});
