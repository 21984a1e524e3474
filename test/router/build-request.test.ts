// How a child's request is built from the call's fields: each field where the provider wants it,
// constants added, the key placed as the provider's auth block says, never off the provider's host.
import { describe, expect, it } from 'vitest';
import type { OperationRuntime, ProviderRuntime, RequestSrc } from '../../language/types.ts';
import { buildChildRequest, providerUrl } from '../../runtime/router/build-request.ts';
import { operation } from '../helpers/operation.ts';

const provider = (auth: ProviderRuntime['auth']): ProviderRuntime => ({ service: 'acme', display_name: 'Acme', base_url: 'https://api.acme.test/v2', auth });
const op = (path: string, method = 'GET', bodyType?: 'json' | 'form'): OperationRuntime => operation({ path, method, input: bodyType ? { bodyType } : {} });
const QUERY_KEY = provider({ env: 'SVC_KEY_ACME', in: 'query', name: 'api_key' });

describe('buildChildRequest', () => {
  it('sends each field where the mapping says, with constants, caps and transforms', () => {
    const request: RequestSrc = {
      map: [
        { from: 'q', to: 'query.q' },
        { from: 'limit', to: 'query.num', max: 50 },
        { from: 'domains', to: 'query.domains[]' },
        { from: 'website', to: 'query.site', transform: 'domain' },
      ],
      const: { query: { engine: 'google' }, header: { 'X-Extra': 'yes' } },
    };
    const r = buildChildRequest(
      op('/search'),
      QUERY_KEY,
      request,
      { q: 'coffee', limit: 500, domains: ['a.com', 'b.com'], website: 'https://www.Stripe.com/x' },
      'k-123',
      {},
    );
    expect(r.url.origin + r.url.pathname).toBe('https://api.acme.test/v2/search');
    expect([...r.url.searchParams]).toEqual([
      ['engine', 'google'],
      ['q', 'coffee'],
      ['num', '50'],
      ['domains[]', 'a.com'],
      ['domains[]', 'b.com'],
      ['site', 'stripe.com'],
      ['api_key', 'k-123'],
    ]);
    expect(r.headers['x-extra']).toBe('yes');
    expect(r.body).toBeNull();
  });

  it('builds JSON bodies at nested paths, in arrays and as a top-level array', () => {
    const nested = buildChildRequest(
      op('/enrich', 'POST', 'json'),
      QUERY_KEY,
      {
        map: [
          { from: 'email', to: 'body.data.email' },
          { from: 'domain', to: 'body.filters.domains[]' },
        ],
      },
      { email: 'j@a.com', domain: 'a.com' },
      'k',
      {},
    );
    expect(JSON.parse(nested.body!)).toEqual({ data: { email: 'j@a.com' }, filters: { domains: ['a.com'] } });
    expect(nested.headers['content-type']).toBe('application/json');
    const tasks = buildChildRequest(op('/serp', 'POST', 'json'), QUERY_KEY, { map: [{ from: 'q', to: 'body[0].keyword' }] }, { q: 'coffee' }, 'k', {});
    expect(JSON.parse(tasks.body!)).toEqual([{ keyword: 'coffee' }]);
  });

  it('fills path parameters from the mapping or constants, a slash inside a value staying data', () => {
    const r = buildChildRequest(
      op('/companies/{domain}/{kind}'),
      QUERY_KEY,
      { map: [{ from: 'url', to: 'path.domain' }], const: { path: { kind: 'full' } } },
      { url: 'a.com/../admin' },
      'k',
      {},
    );
    expect(r.url.pathname).toBe('/v2/companies/a.com%2F..%2Fadmin/full');
    expect(r.url.host).toBe('api.acme.test');
  });

  it.each([
    [{ env: 'E', in: 'header', name: 'X-API-KEY' } as const, (h: Record<string, string>) => h['x-api-key'] === 'sk_1'],
    [{ env: 'E', in: 'header', name: 'Authorization', prefix: 'Token ' } as const, (h: Record<string, string>) => h.authorization === 'Token sk_1'],
    [{ env: 'E', in: 'bearer' } as const, (h: Record<string, string>) => h.authorization === 'Bearer sk_1'],
    [{ env: 'E', in: 'basic' } as const, (h: Record<string, string>) => h.authorization === `Basic ${Buffer.from('sk_1').toString('base64')}`],
  ])('places the key: %o', (auth, ok) => {
    expect(ok(buildChildRequest(op('/x'), provider(auth), { map: [] }, {}, 'sk_1', {}).headers)).toBe(true);
  });

  it('splits key:secret across placements', () => {
    const p = provider({ env: 'E', in: 'header', name: 'X-Key', part: 0, also: [{ in: 'header', name: 'X-Secret', part: 1 }] });
    const h = buildChildRequest(op('/x'), p, { map: [] }, {}, 'key1:secret2', {}).headers;
    expect([h['x-key'], h['x-secret']]).toEqual(['key1', 'secret2']);
  });

  it('writes the query as URLSearchParams would, the key in the place of a parameter of its name, else last', () => {
    const request: RequestSrc = {
      map: [
        { from: 'q', to: 'query.q' },
        { from: 'tags', to: 'query.tag' },
      ],
      const: { query: { api_key: 'placeholder', lang: 'de' } },
    };
    const r = buildChildRequest(op('/search'), QUERY_KEY, request, { q: 'coffee & cake (berlin)!', tags: ['a b', 'ü'] }, 'k 1/2', {});
    const expected = new URLSearchParams([
      ['api_key', 'placeholder'],
      ['lang', 'de'],
      ['q', 'coffee & cake (berlin)!'],
      ['tag', 'a b'],
      ['tag', 'ü'],
    ]);
    expected.set('api_key', 'k 1/2');
    expect(r.path).toBe(`/v2/search?${expected}`);
    // a parameter left out (null) is no place to put the key: it goes last, as URLSearchParams.set puts a new one
    const unset = buildChildRequest(
      op('/search'),
      QUERY_KEY,
      { map: [{ from: 'q', to: 'query.q' }], const: { query: { api_key: null, lang: 'de' } } },
      { q: 'x' },
      'k',
      {},
    );
    expect(unset.path).toBe('/v2/search?lang=de&q=x&api_key=k');
  });

  it('writes a form body as URLSearchParams would, with the form content type', () => {
    const request: RequestSrc = {
      map: [
        { from: 'q', to: 'body.q' },
        { from: 'n', to: 'body.n' },
      ],
      const: { body: { lang: 'de' } },
    };
    const r = buildChildRequest(op('/lookup', 'POST', 'form'), QUERY_KEY, request, { q: 'café & cake (x)!', n: 3 }, 'k', {});
    expect(r.body).toBe(
      new URLSearchParams([
        ['lang', 'de'],
        ['q', 'café & cake (x)!'],
        ['n', '3'],
      ]).toString(),
    );
    expect(r.headers['content-type']).toBe('application/x-www-form-urlencoded');
  });

  it('goes to SVC_BASE_<SERVICE> when set', () => {
    const r = buildChildRequest(op('/x'), QUERY_KEY, { map: [] }, {}, 'k', { SVC_BASE_ACME: 'http://127.0.0.1:9/acme' });
    expect(r.url.href).toBe('http://127.0.0.1:9/acme/x?api_key=k');
  });
});

describe('providerUrl (pass-through paths)', () => {
  it.each(['/../x', '/a/..', '/%2e%2e/x', '/a%2fb', '/a\\\\b', '/./x'])('refuses %s', (p) => {
    expect(providerUrl(QUERY_KEY, {}, p)).toBeNull();
  });

  it('keeps an ordinary path on the provider host', () => {
    expect(providerUrl(QUERY_KEY, {}, '/email-finder')!.href).toBe('https://api.acme.test/v2/email-finder');
  });
});
