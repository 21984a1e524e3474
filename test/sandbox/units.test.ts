// The sandbox's small rules on their own: key placements, steering words, seeded faults, the fetch
// handler and its control routes.
import { describe, expect, it } from 'vitest';
import type { ProviderRuntime } from '../../language/types.ts';
import { authorized } from '../../sandbox/auth.ts';
import { faultDice } from '../../sandbox/faults.ts';
import { createSandbox, loadSandboxCatalog } from '../../sandbox/index.ts';
import { readSteer } from '../../sandbox/steer.ts';
import { FIXTURE_DIST } from '../helpers/paths.ts';

const provider = (auth: ProviderRuntime['auth']): ProviderRuntime => ({ service: 'p', display_name: 'P', base_url: 'https://p.test', auth });
const q = (s = ''): URLSearchParams => new URLSearchParams(s);

describe('key placements', () => {
  it('header with prefix, query, bearer, basic', () => {
    expect(authorized(provider({ env: 'E', in: 'header', name: 'X-Key', prefix: 'Token ' }), 'k1', { 'x-key': 'Token k1' }, q())).toBe(true);
    expect(authorized(provider({ env: 'E', in: 'header', name: 'X-Key', prefix: 'Token ' }), 'k1', { 'x-key': 'k1' }, q())).toBe(false);
    expect(authorized(provider({ env: 'E', in: 'query', name: 'api_key' }), 'k1', {}, q('api_key=k1'))).toBe(true);
    expect(authorized(provider({ env: 'E', in: 'bearer' }), 'k1', { authorization: 'Bearer k1' }, q())).toBe(true);
    const basic = `Basic ${Buffer.from('user:pw').toString('base64')}`;
    expect(authorized(provider({ env: 'E', in: 'basic' }), 'user:pw', { authorization: basic }, q())).toBe(true);
    expect(authorized(provider({ env: 'E', in: 'basic' }), 'user:pw', {}, q())).toBe(false);
  });

  it('part splits key:secret and `also` adds placements, all required', () => {
    const p = provider({ env: 'E', in: 'header', name: 'X-Id', part: 0, also: [{ in: 'query', name: 'secret', part: 1 }] });
    expect(authorized(p, 'id1:s3', { 'x-id': 'id1' }, q('secret=s3'))).toBe(true);
    expect(authorized(p, 'id1:s3', { 'x-id': 'id1' }, q())).toBe(false);
  });
});

describe('steering words', () => {
  it('reads per-provider words, bare nohit, latency', () => {
    expect(readSteer('jane+nohit-hunter@acme.com', 'hunter')).toEqual({ fault: null, latencyMs: 0, miss: true, chargeUnits: null });
    expect(readSteer('jane+nohit-hunter@acme.com', 'apollo').miss).toBe(false);
    expect(readSteer('nohit@acme.com', 'apollo').miss).toBe(true);
    expect(readSteer('fail-serpapi', 'serp').fault).toBe(null);
    expect(readSteer('x latency250ms-serp y', 'serp').latencyMs).toBe(250);
    expect(readSteer('reset-serp slow-serp', 'serp').fault).toBe('reset');
    expect(readSteer('q charge2-serper x', 'serper').chargeUnits).toBe(2);
    expect(readSteer('q charge0.5-serper', 'serper').chargeUnits).toBe(0.5);
    expect(readSteer('q charge2-serperx', 'serper').chargeUnits).toBeNull();
  });

  it('seeded random faults repeat for the same seed', () => {
    const none = { fault: null, latencyMs: 0, miss: false, chargeUnits: null } as const;
    const run = (seed: number) => {
      const d = faultDice(0.5, seed);
      return Array.from({ length: 40 }, () => JSON.stringify(d(none)));
    };
    expect(run(7)).toEqual(run(7));
    expect(run(7).filter((s) => s !== JSON.stringify(none)).length).toBeGreaterThan(5);
    expect(faultDice(0, 1)(none)).toBe(none);
  });
});

describe('fetch handler', () => {
  const runtime = loadSandboxCatalog(FIXTURE_DIST);
  const app = createSandbox(runtime, { keys: { zerobounce: 'zk', searchco: 'sk' } });

  it('answers a hit, counts it, and resets', async () => {
    const res = await app.fetch(new Request('http://sb/zerobounce/validate?email=ada%40acme.com&ip_address=&api_key=zk'));
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ address: 'ada@acme.com', status: 'valid' });
    expect(await (await app.fetch(new Request('http://sb/_sandbox/billing'))).json()).toEqual({
      'zerobounce.people.email.verify': { calls: 1, billed_micro: 8000 },
    });
    await app.fetch(new Request('http://sb/_sandbox/reset', { method: 'POST' }));
    expect(app.billing()).toEqual({});
  });

  it('answers utility operations with their example or {} and unknown paths with 404', async () => {
    const res = await app.fetch(new Request('http://sb/searchco/account', { headers: { 'x-api-key': 'sk' } }));
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({});
    expect((await app.fetch(new Request('http://sb/searchco/nowhere', { headers: { 'x-api-key': 'sk' } }))).status).toBe(404);
  });

  it('answers per_result rows up to the limit sent', async () => {
    const res = await app.fetch(new Request('http://sb/searchco/rows/google?query=tea&size=2&engine=google', { headers: { 'x-api-key': 'sk' } }));
    const body = (await res.json()) as { data: { rows: unknown[] } };
    expect(body.data.rows).toHaveLength(2);
    expect(app.billing()['searchco.google.serp.organic.rows']).toEqual({ calls: 1, billed_micro: 1000 });
  });
});
