// One upstream answer, one billing rule: routed calls through the real catalog against the sandbox,
// where what the team is charged must equal what the provider (the sandbox) billed, for the billing
// shapes of the catalog format (blocks of rows, a minimum of units) and for answers two capabilities share.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RuntimeCatalog } from '../../language/types.ts';
import { REAL_DIST } from '../helpers/paths.ts';
import { routedWorld, type RoutedWorld } from '../helpers/routed.ts';

const runtime = JSON.parse(readFileSync(join(REAL_DIST, 'catalog', 'runtime.json'), 'utf8')) as RuntimeCatalog;
let w: RoutedWorld;
beforeAll(async () => {
  w = await routedWorld(REAL_DIST, { creditMicro: 1_000_000_000 });
});
afterAll(() => w.close());

interface Tried {
  endpoint_id: string;
  outcome: string;
  cost_micro: number;
}

/** Route a call to one child only: every other provider of the capability is excluded. */
async function only(cap: string, childId: string, body: Record<string, unknown>) {
  const others = [...new Set(runtime.capabilities[cap].children.map((id) => runtime.operations[id].provider))].filter(
    (p) => p !== runtime.operations[childId].provider,
  );
  const before = (await w.billing())[childId]?.billed_micro ?? 0;
  const r = await w.call(`/proxy/${cap}`, body, { 'X-Svc-Route-Exclude': others.join(','), 'X-Svc-Route-Max-Cost': '100' });
  expect(r.status).toBe(200);
  const billed = ((await w.billing())[childId]?.billed_micro ?? 0) - before;
  const tried = (r.body._svc.tried as Tried[]).filter((t) => t.endpoint_id === childId);
  expect(tried).toHaveLength(1);
  return { body: r.body, attempt: tried[0], billed };
}

describe('billing shapes: the router charges what the provider bills', () => {
  it('Hunter Domain Search bills one credit for each started block of 10 emails', async () => {
    const { body, attempt, billed } = await only('people.search', 'hunter.people.search', { company_domain: 'stripe.com', limit: 15 });
    expect(attempt.outcome).toBe('hit');
    const rows = (body.output.people as unknown[]).length;
    expect(rows).toBeGreaterThan(0);
    expect(attempt.cost_micro).toBe(24_500 * Math.ceil(rows / 10));
    expect(attempt.cost_micro).toBe(billed);
  });

  it.each(['people.search', 'companies.search'])('a Lusha %s bills 1 credit for each started block of 25 results, not 1 a result', async (cap) => {
    const id = `lusha.${cap}`;
    const identity = cap === 'people.search' ? { company_domain: 'stripe.com' } : { domain: 'stripe.com' };
    const list = cap === 'people.search' ? 'people' : 'companies';
    const small = await only(cap, id, { ...identity, limit: 5 });
    expect(small.attempt.outcome).toBe('hit');
    expect((small.body.output[list] as unknown[]).length).toBeGreaterThan(1);
    expect(small.attempt.cost_micro).toBe(90_000);
    expect(small.attempt.cost_micro).toBe(small.billed);
    const big = await only(cap, id, { ...identity, limit: 30 });
    const rows = (big.body.output[list] as unknown[]).length;
    expect(big.attempt.cost_micro).toBe(90_000 * Math.ceil(rows / 25));
    expect(big.attempt.cost_micro).toBe(big.billed);
  });

  it('a Lusha search that returns nothing still bills its 1-credit minimum, to the team as to the platform', async () => {
    const { attempt, billed } = await only('people.search', 'lusha.people.search', { company_domain: 'nohit-lusha.example.com' });
    expect(attempt.outcome).toBe('miss');
    expect(attempt.cost_micro).toBe(90_000);
    expect(billed).toBe(90_000);
  });
});

describe("prices the providers' own material settles, charged against the sandbox", () => {
  it("a LeadMagic email validation bills 0.25 credit, as its repository's README has said since April 2026", async () => {
    const { attempt, billed } = await only('people.email.verify', 'leadmagic.people.email.verify', { email: 'jane@stripe.com' });
    expect(attempt.cost_micro).toBe(6_000);
    expect(billed).toBe(6_000);
  });

  it("an Ocean person enrichment bills the API reference's 3 credits, the dearer of Ocean's two readings", async () => {
    const { attempt, billed } = await only('people.enrich', 'ocean.people.enrich', { linkedin_url: 'https://www.linkedin.com/in/jane-doe' });
    expect(attempt.outcome).toBe('hit');
    expect(attempt.cost_micro).toBe(60_000);
    expect(billed).toBe(60_000);
  });
});

describe('one upstream answer, one billing rule, whatever capability asked', () => {
  const name = { domain: 'acme.com', first_name: 'Jane', last_name: 'nohit-dropcontact' };
  it.each(['people.email.find', 'people.enrich'])('a Dropcontact answer without an email is a free miss under %s', async (cap) => {
    const { attempt, billed } = await only(cap, `dropcontact.${cap}`, name);
    expect(attempt.outcome).toBe('miss');
    expect(attempt.cost_micro).toBe(0);
    expect(billed).toBe(0);
  });

  it('a Tomba Domain Search that finds no email is free under people.search', async () => {
    const { attempt, billed } = await only('people.search', 'tomba.people.search', { company_domain: 'nohit-tomba.example.com', limit: 10 });
    expect(attempt.outcome).toBe('miss');
    expect(attempt.cost_micro).toBe(billed);
    expect(billed).toBe(0);
  });
});

describe('people search names', () => {
  it.each(['hunter.people.search', 'apollo.people.search'])('%s fills full_name from first and last name', async (id) => {
    const { body, attempt } = await only('people.search', id, { company_domain: 'stripe.com', limit: 3 });
    expect(attempt.outcome).toBe('hit');
    for (const p of body.output.people as Array<{ full_name: string }>) expect(p.full_name).toMatch(/^\S+ \S.*$/);
  });
});
