// What GET /catalog/search gives back over the real catalog, asked as people ask: every operation of
// the capability a query names and a `total` that counts what matched, whatever the limit; the same
// ranking with or without an article; a provider's name found through a typo.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REAL_DIST } from '../helpers/paths.ts';
import { servedRealCatalog } from './served.ts';

const server = servedRealCatalog();

interface Result {
  endpoint_id: string;
  capability: string;
  score: number;
}
const search = async (q: string, limit = 25): Promise<{ results: Result[]; total: number }> =>
  (await fetch(`${server.url}/catalog/search?q=${encodeURIComponent(q)}&limit=${limit}`)).json() as Promise<{ results: Result[]; total: number }>;
const ids = (results: Result[]) => results.map((r) => r.endpoint_id);
const operationsOf = (capability: string): string[] =>
  (JSON.parse(readFileSync(join(REAL_DIST, 'catalog', 'search', 'rows.json'), 'utf8')) as Array<{ endpoint_id: string; capability: string }>)
    .filter((r) => r.capability === capability)
    .map((r) => r.endpoint_id);

describe("a capability's operations, and the total", () => {
  it.each([
    ['verify email', 'people.email.verify'],
    ['people.email.verify', 'people.email.verify'],
    ['people.email.find', 'people.email.find'],
    ['find the work email of a person', 'people.email.find'],
    ['will this email bounce', 'people.email.verify'],
  ])('%s, 100 rows asked: every operation of %s is among them', async (q, capability) => {
    const { results } = await search(q, 100);
    expect(operationsOf(capability).filter((id) => !ids(results).includes(id))).toEqual([]);
  });

  it('verify email: the verifiers one would expect, each before any account balance', async () => {
    const { results } = await search('verify email', 100);
    for (const p of ['zerobounce', 'verifalia', 'mailgun', 'mailboxvalidator', 'leadmagic']) expect(ids(results)).toContain(`${p}.people.email.verify`);
    const lastVerifier = results.findLastIndex((r) => r.capability === 'people.email.verify');
    expect(results.slice(0, lastVerifier).filter((r) => r.capability.startsWith('account.'))).toEqual([]);
  });

  it('email: the total counts every row of the capabilities the query names, and is the same whatever the limit', async () => {
    const named = operationsOf('people.email.find').concat(operationsOf('people.email.verify'));
    const [few, many] = await Promise.all([search('email', 5), search('email', 100)]);
    expect(many.total).toBeGreaterThanOrEqual(named.length);
    expect(few.total).toBe(many.total);
  });

  it.each(['bounce', 'deliverability', 'phone number', 'credits left', 'tech stack', 'linkedin posts', 'google search', 'email'])(
    '%s: as many rows as the total counts, up to the 100 asked',
    async (q) => {
      const { results, total } = await search(q, 100);
      expect(results).toHaveLength(Math.min(total, 100));
      expect((await search(q, 5)).total).toBe(total);
    },
  );

  it.each(['verfy email adress', 'verify an email', 'email', 'whats the email of the head of sales at notion', 'enrich a lead with job title and company'])(
    '%s: the first rows do not change with the rows asked',
    async (q) => {
      const [few, many] = await Promise.all([search(q, 5), search(q, 100)]);
      expect(many.results.slice(0, 5)).toEqual(few.results);
    },
  );
});

describe('an article changes nothing', () => {
  it.each([
    ['verify email', 'verify an email', 'verify the email'],
    ['company from domain', 'company from a domain', 'company from the domain'],
    ['phone number for linkedin profile', 'phone number for a linkedin profile', 'the phone number for the linkedin profile'],
    ['email of person at company', 'the email of a person at a company'],
    ['competitors of company', 'competitors of a company'],
    ['is email deliverable', 'is an email deliverable', 'is the email deliverable'],
  ])('%s ranks as %s', async (...qs) => {
    const [first, ...others] = await Promise.all(qs.map(async (q) => ({ ...(await search(q, 20)), q: undefined, hints: undefined })));
    for (const other of others) expect(other).toEqual(first);
  });

  it("the examples svc gives when nothing does a job answer with the right capability's routed entry first", async () => {
    const verify = (await search('verify an email', 10)).results;
    expect(verify[0].endpoint_id).toBe('svc.people.email.verify');
    expect(verify.map((r) => r.capability)).toEqual(verify.map(() => 'people.email.verify'));
    expect((await search('company from a domain')).results[0].endpoint_id).toBe('svc.companies.enrich');
    expect((await search('company from domain')).results[0].endpoint_id).toBe('svc.companies.enrich');
  });
});

describe("a provider's name misspelt", () => {
  it.each([
    ['zerobouce', 'zerobounce'],
    ['zerobunce', 'zerobounce'],
    ['hunetr', 'hunter'],
    ['datagam', 'datagma'],
    ['rocketrech', 'rocketreach'],
    ['findymial', 'findymail'],
    ['lsha', 'lusha'],
    ['apolo', 'apollo'],
    ['nevrbounce', 'neverbounce'],
    ['kikcbox', 'kickbox'],
    ['prospoe', 'prospeo'],
    ['icypaes', 'icypeas'],
  ])('%s answers the operations of %s', async (q, provider) => {
    const { results, total } = await search(q);
    expect(total).toBeGreaterThan(0);
    for (const r of results) expect(r.endpoint_id.startsWith(`${provider}.`)).toBe(true);
  });

  it.each([
    ['hunetr email finder', 'hunter.people.email.find'],
    ['zerobouce verify email', 'zerobounce.people.email.verify'],
    ['find emails with snvo', 'snov.people.email.find'],
  ])('%s: %s first', async (q, id) => {
    expect((await search(q)).results[0].endpoint_id).toBe(id);
  });

  it.each([
    ['zero bounce', 'zerobounce'],
    ['Rocket Reach', 'rocketreach'],
    ['lead-magic', 'leadmagic'],
    ['million verifier', 'millionverifier'],
  ])('a one-word name written in parts, %s, answers the operations of %s', async (q, provider) => {
    const { results } = await search(q);
    expect(results.length).toBeGreaterThan(0);
    for (const r of results) expect(r.endpoint_id.startsWith(`${provider}.`)).toBe(true);
  });

  it('parts that are all words of jobs stay the job: company enrich is the capability, not CompanyEnrich alone', async () => {
    const { results } = await search('company enrich');
    expect(results[0].endpoint_id).toBe('svc.companies.enrich');
    expect(new Set(results.map((r) => r.endpoint_id.split('.')[0])).size).toBeGreaterThan(2);
  });

  it('a name two letters from a provider is another company: clearbit is not Clearout', async () => {
    const { results } = await search('clearbit style company data', 5);
    expect(results[0].capability).toBe('companies.enrich');
    expect(ids(results).filter((id) => id.startsWith('clearout.'))).toEqual([]);
  });
});

it('serp results: the search itself comes first, not the step that collects an asynchronous one', async () => {
  const { results } = await search('serp results', 5);
  expect(results[0].endpoint_id).toBe('svc.google.serp.organic');
  expect(ids(results)).not.toContain('brightdata.google.serp.page.async.result');
});

it("a provider's name alone puts that provider's rows first, even where a vocabulary once named it (OpenCorporates)", async () => {
  const { results } = await search('opencorporates', 5);
  expect(results.map((r) => r.endpoint_id.split('.')[0])).toEqual(Array(5).fill('opencorporates'));
});
