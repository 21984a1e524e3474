// Children read against answers shaped as their providers document them (not as the sandbox derives
// them from our own YAML): Snov's prospects task, Clearout's, Kickbox's and Emailable's keys, Apollo's
// email credit, Tomba's count of a Domain Search.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RuntimeCatalog } from '../../language/types.ts';
import { getPath } from '../../language/json-path.ts';
import { classifyRecord } from '../../runtime/router/classify.ts';
import { buildChildRequest } from '../../runtime/router/build-request.ts';
import { REAL_DIST } from '../helpers/paths.ts';
import { routedWorld, type RoutedWorld } from '../helpers/routed.ts';

const runtime = JSON.parse(readFileSync(join(REAL_DIST, 'catalog', 'runtime.json'), 'utf8')) as RuntimeCatalog;

/** The request a routed child sends for these call fields with this key, placed as its provider's auth says. */
function childRequest(id: string, fields: Record<string, unknown>, key: string) {
  const op = runtime.operations[id];
  return buildChildRequest(op, runtime.providers[op.provider], op.request!, fields, key, {});
}

describe("snov.people.search reads Snov's prospects task as Snov documents it", () => {
  const op = runtime.operations['snov.people.search'];
  const cap = runtime.capabilities['people.search'];
  // POST /v2/domain-search/prospects/start (snov.io/knowledgebase/how-to-use-domain-search-api)
  const started = {
    data: [],
    meta: { domain: 'snov.io', tab: 'prospects', task_hash: '3384369c9d2bd2c5b8bc6b2a1d18b3b8', page: 1 },
    links: { result: 'https://api.snov.io/v2/domain-search/prospects/result/3384369c9d2bd2c5b8bc6b2a1d18b3b8' },
  };
  // GET /v2/domain-search/prospects/result/{task_hash}
  const done = {
    data: [
      {
        first_name: 'John',
        last_name: 'Doe',
        position: 'Web developer',
        source_page: 'https://www.linkedin.com/in/john-doe/',
        search_emails_start: 'https://api.snov.io/v2/domain-search/prospects/search-emails/start/abc',
      },
    ],
    meta: { domain: 'snov.io', tab: 'prospects', task_hash: '3384369c9d2bd2c5b8bc6b2a1d18b3b8', page: 1, total_count: 18 },
    links: { next: '' },
    status: 'completed',
  };

  it('the task id is meta.task_hash of the start answer', () => {
    expect(getPath(started, op.async!.id_from)).toBe('3384369c9d2bd2c5b8bc6b2a1d18b3b8');
  });

  it('rows are data[], names joined from first_name and last_name, the total from meta.total_count', () => {
    const record = op.async!.result.path ? getPath(done, op.async!.result.path) : done;
    const verdict = classifyRecord(cap, op, record);
    expect(verdict).toMatchObject({
      outcome: 'hit',
      output: {
        total: 18,
        people: [expect.objectContaining({ full_name: 'John Doe', title: 'Web developer', linkedin_url: 'https://www.linkedin.com/in/john-doe/' })],
      },
    });
  });

  it('a completed task with no prospects is a miss', () => {
    expect(classifyRecord(cap, op, { ...done, data: [], meta: { ...done.meta, total_count: 0 } }).outcome).toBe('miss');
  });
});

describe('Clearout', () => {
  it('is sent Authorization: Bearer <token>, as its API overview says', () => {
    const req = childRequest('clearout.people.email.verify', { email: 'jane@acme.com' }, 'clearout-token-123');
    expect(req.headers.authorization).toBe('Bearer clearout-token-123');
  });
});

describe('Kickbox', () => {
  // docs.kickbox.com/docs/using-the-api: the `apikey` query parameter or a Bearer header; no `token` scheme
  it('is sent Authorization: Bearer <key>, one of the two forms its quickstart documents', () => {
    const req = childRequest('kickbox.people.email.verify', { email: 'jane@acme.com' }, 'live_kickbox123');
    expect(req.headers.authorization).toBe('Bearer live_kickbox123');
    expect(req.url.searchParams.get('email')).toBe('jane@acme.com');
  });
});

describe('Emailable', () => {
  // emailable.com/docs/api: GET https://api.emailable.com/v1/verify?email=…&api_key=…
  it('is sent the key as the api_key URL parameter, as its API reference shows', () => {
    const req = childRequest('emailable.people.email.verify', { email: 'john@smith.com' }, 'live_emailable123');
    expect(req.url.pathname).toBe('/v1/verify');
    expect(req.url.searchParams.get('api_key')).toBe('live_emailable123');
    expect(req.url.searchParams.get('email')).toBe('john@smith.com');
    expect(req.headers.authorization).toBeUndefined();
  });
});

describe('Apollo', () => {
  // docs.apollo.io/docs/api-pricing: a match with a verified email costs 1 export credit and 1 email credit
  it('bills an email found by people/match as two credits, the profile alone as one', () => {
    const find = runtime.operations['apollo.people.email.find'];
    const profile = runtime.operations['apollo.people.enrich'];
    expect(find.cost).toMatchObject({ type: 'per_success', value: 2, currency: 'credits' });
    expect(find.price_micro).toBe(2 * profile.price_micro);
  });
});

describe('Skrapp', () => {
  // support.skrapp.io: email search credits are charged only for 'Valid' and 'Catch-all' results, not 'Invalid' or 'Unknown'
  const op = runtime.operations['skrapp.people.email.find'];
  const cap = runtime.capabilities['people.email.find'];
  const found = (status: string) => ({ email: 'jane.martin@skrapp.io', accuracy: 60, quality: { status, status_message: '' } });
  it.each([
    ['valid', 'hit'],
    ['catch-all', 'hit'],
    ['invalid', 'miss'],
    ['unknown', 'miss'],
  ])('an email answered with status %s is a %s (a miss is free)', (status, outcome) => {
    expect(classifyRecord(cap, op, found(status)).outcome).toBe(outcome);
    expect(op.bills_miss).toBe(false);
  });
});

describe('Tomba', () => {
  // docs.tomba.io/rate-limits: "Domain Search | Counted 1 for up to 10 Emails"; a page of 50 would be five
  // requests billed as one, so the child never asks for more than 10.
  it('asks a Domain Search for at most 10 emails, the one request its price holds', () => {
    const op = runtime.operations['tomba.people.search'];
    const req = childRequest('tomba.people.search', { company_domain: 'stripe.com', limit: 50 }, 'ta_key:ts_secret');
    expect(req.url.searchParams.get('limit')).toBe('10');
    expect(op.cost).toMatchObject({ type: 'per_call', value: 1, source: 'documented' });
  });
});

describe('through the sandbox', () => {
  let w: RoutedWorld;
  beforeAll(async () => {
    w = await routedWorld(REAL_DIST);
  });
  afterAll(() => w.close());

  it('a Snov prospects search is polled to its end and answers people with names and the total', async () => {
    const r = await w.call('/proxy/people.search', { company_domain: 'acme.com' }, { 'X-Svc-Route-Prefer': 'snov' });
    expect(r.body._svc.served_by).toBe('snov.people.search');
    expect(r.body.output.people[0].full_name).toMatch(/\S+ \S+/);
    expect(r.body.output.total).toEqual(expect.any(Number));
  });

  it('Kickbox answers a call sent with the Bearer key', async () => {
    const r = await w.call('/proxy/people.email.verify', { email: 'jane@acme.com' }, { 'X-Svc-Route-Prefer': 'kickbox' });
    expect(r.body._svc.tried[0]).toMatchObject({ endpoint_id: 'kickbox.people.email.verify', outcome: 'hit' });
  });
});
