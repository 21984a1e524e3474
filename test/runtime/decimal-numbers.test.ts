// Numbers in query strings and headers are decimal digits only: `0x10`, `1e2`, ` 5` and `Infinity`
// are 422s naming the field, where JavaScript's readers would take them.
import { beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, jsonInit, testApp } from './app-helper.ts';

type App = Awaited<ReturnType<typeof testApp>>;
let t: App;
let token = '';

beforeAll(async () => {
  t = await testApp();
  const res = await t.call('/admin/teams', jsonInit('POST', { name: 'Digits', credit_usd: 5 }, { 'x-svc-admin': ADMIN }));
  token = ((await res.json()) as { token: string }).token;
});

const NOT_DECIMAL = ['0x10', '1e1', '1E1', '+5', '0b11', '0o7', 'Infinity', '1_0', '5.0'];

describe('query numbers', () => {
  it.each([...NOT_DECIMAL, ' 5', '5 '])('search limit=%j is a 422 naming limit', async (v) => {
    const res = await t.call(`/catalog/search?q=email&limit=${encodeURIComponent(v)}`);
    expect(res.status).toBe(422);
    const body = (await res.json()) as { detail: { loc: unknown[]; msg: string }[] };
    expect(body.detail[0].loc).toEqual(['query', 'limit']);
    expect(body.detail[0].msg).toContain('decimal digits');
  });

  it('decimal digits still pass, and the bounds still apply', async () => {
    expect((await t.call('/catalog/search?q=email&limit=16')).status).toBe(200);
    expect((await t.call('/catalog/search?q=email&limit=0100')).status).toBe(200); // leading zeros are still decimal
    expect((await t.call('/catalog/search?q=email&limit=101')).status).toBe(422);
  });

  it('a path number (a feedback id) is read the same way', async () => {
    const res = await t.call('/feedback/0x1', { headers: { 'x-svc-token': token } });
    expect(res.status).toBe(422);
  });
});

describe('header numbers', () => {
  const routed = (headers: Record<string, string>) =>
    t.call('/proxy/people.email.verify', jsonInit('POST', { email: 'jane@acme.com' }, { 'x-svc-token': token, ...headers }));

  // (a header's surrounding white space is not part of its value in HTTP, so ' 5' reads as 5 there)
  it.each(NOT_DECIMAL)('X-Svc-Route-Timeout-Ms: %j is a 422 naming the header', async (v) => {
    const res = await routed({ 'X-Svc-Route-Timeout-Ms': v, 'X-Svc-Route-Dry-Run': '1' });
    expect(res.status).toBe(422);
    const body = (await res.json()) as { detail: { loc: unknown[]; msg: string }[] };
    expect(body.detail[0].loc).toEqual(['header', 'X-Svc-Route-Timeout-Ms']);
    expect(body.detail[0].msg).toContain('decimal digits');
  });

  it('X-Svc-Route-Timeout-Ms in digits is taken', async () => {
    expect((await routed({ 'X-Svc-Route-Timeout-Ms': '5000', 'X-Svc-Route-Dry-Run': '1' })).status).toBe(200);
  });

  it.each(['0x10', '1e1', '8.0'])('X-Svc-Batch-Concurrency: %j is a 422 naming the header', async (v) => {
    const res = await t.call('/proxy/people.email.verify/batch', {
      method: 'POST',
      body: '{"email":"jane@acme.com"}\n',
      headers: { 'content-type': 'application/x-ndjson', 'x-svc-token': token, 'X-Svc-Batch-Concurrency': v },
    });
    expect(res.status).toBe(422);
    const body = (await res.json()) as { detail: { loc: unknown[] }[] };
    expect(body.detail[0].loc).toEqual(['header', 'X-Svc-Batch-Concurrency']);
  });
});
