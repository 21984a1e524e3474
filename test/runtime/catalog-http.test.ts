// Every open catalog route over a real server listening on loopback, bad input included, through
// each door (vite.config.ts runs this suite once per door).
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURE_DIST } from '../helpers/paths.ts';
import { keyBody, searchQuery } from '../../runtime/http/request-schemas.ts';
import { servedRuntime } from '../helpers/server.ts';

let door: (path: string, init?: RequestInit) => Promise<Response>;
let base = '';
let close: () => Promise<void>;
beforeAll(async () => {
  const s = await servedRuntime(FIXTURE_DIST, { SVC_PUBLIC_URL: 'https://api.example.test', SVC_PROXY_PREFIX: 'px' });
  door = s.fetch;
  base = s.url;
  close = s.close;
});
afterAll(() => close());

const get = async (path: string) => {
  const r = await door(path);
  const text = await r.text();
  return { status: r.status, type: r.headers.get('content-type') ?? '', body: text.startsWith('{') || text.startsWith('[') ? JSON.parse(text) : text };
};

describe('GET /meta', () => {
  it('names the proxy URL, both versions and the catalog', async () => {
    const { status, body } = await get('/meta');
    expect(status).toBe(200);
    expect(body.proxy_url).toBe('https://api.example.test/px');
    expect(body.proxy_prefix).toBe('/px');
    expect(body.svc_version).toMatch(/^\d+\.\d+\.\d+/);
    expect(body.app_version).toMatch(/^[0-9a-f]{12}$/);
    expect(body.catalog).toMatchObject({ operations: 14, providers: 4 });
    expect(body.catalog.hash).toMatch(/^[0-9a-f]{16}$/);
  });
});

describe('GET /catalog/platforms', () => {
  it('lists shelves busiest first with vendors', async () => {
    const { status, body } = await get('/catalog/platforms');
    expect(status).toBe(200);
    const ops = body.platforms.map((p: { operations: number }) => p.operations);
    expect(ops).toEqual([...ops].sort((a, b) => b - a));
    const people = body.platforms.find((p: { slug: string }) => p.slug === 'people');
    expect(people).toMatchObject({ label: 'People and contact data', vendors: ['CheckCo', 'FindCo', 'ZeroBounce'], calls_30d: 0 });
    expect(people.capabilities).toBeGreaterThan(0);
    expect(body.hints.length).toBeGreaterThan(0);
  });
});

describe('GET /catalog/platforms/{slug}', () => {
  it('groups by capability, routed first, and hides utility operations', async () => {
    const { body } = await get('/catalog/platforms/search');
    expect(body.slug).toBe('search');
    expect(body.hidden_count).toBe(1);
    expect(body.capabilities[0]).toMatchObject({ capability: 'google.serp.organic', routed: true });
    expect(body.capabilities[0].operations[0].id).toBe('svc.google.serp.organic');
    const kinds = body.capabilities.flatMap((c: { operations: Array<{ kind: string }> }) => c.operations.map((o) => o.kind));
    expect(kinds).not.toContain('utility');
  });

  it('include_hidden=1 returns the whole surface with kinds', async () => {
    const { body } = await get('/catalog/platforms/search?include_hidden=1');
    expect(body.hidden_count).toBe(1);
    const ids = body.capabilities.flatMap((c: { operations: Array<{ id: string }> }) => c.operations.map((o) => o.id));
    expect(ids).toContain('searchco.account.usage');
  });

  it.each(['2', 'yes', '-1', '1.5', '01', '1.0', 'true', ''])('include_hidden=%s is a 422 naming the parameter', async (v) => {
    const { status, body } = await get(`/catalog/platforms/search?include_hidden=${v}`);
    expect(status).toBe(422);
    expect(body.detail[0].loc).toEqual(['query', 'include_hidden']);
    expect(typeof body.detail[0].msg).toBe('string');
    expect(typeof body.detail[0].type).toBe('string');
  });

  it('hints at include_hidden=1 only where it adds operations, and not in the view that has them', async () => {
    expect((await get('/catalog/platforms/search')).body.hints[0]).toBe(
      'GET /catalog/platforms/search?include_hidden=1 adds the 1 account and utility operations',
    );
    expect((await get('/catalog/platforms/search?include_hidden=1')).body.hints.join(' ')).not.toContain('include_hidden');
    expect((await get('/catalog/platforms/youtube')).body.hints.join(' ')).not.toContain('include_hidden');
  });

  it('the 422 of include_hidden says which values it takes', async () => {
    expect((await get('/catalog/platforms/search?include_hidden=yes')).body.detail[0].msg).toBe("'include_hidden' must be one of 0 or 1.");
  });

  it('an unknown slug is a 404 with a sentence', async () => {
    const { status, body } = await get('/catalog/platforms/astrology');
    expect(status).toBe(404);
    expect(body.detail).toMatch(/astrology/);
  });

  it('an unknown slug names the platforms there are', async () => {
    const { status, body } = await get('/catalog/platforms/People');
    expect(status).toBe(404);
    expect(body.detail).toMatch(/'People'; the platforms are .*\bpeople\b/);
  });

  it('ignores unknown query parameters', async () => {
    expect((await get('/catalog/platforms/search?utm_source=x')).status).toBe(200);
  });
});

describe('GET /catalog/search', () => {
  it('ranks by matched tokens and answers result rows', async () => {
    const { status, body } = await get('/catalog/search?q=verify%20email');
    expect(status).toBe(200);
    expect(body.q).toBe('verify email');
    expect(body.results[0].endpoint_id).toMatch(/email.verify$/);
    expect(body.results[0]).toEqual(
      expect.objectContaining({
        name: expect.any(String),
        summary: expect.any(String),
        provider_display: expect.any(String),
        capability: expect.any(String),
        kind: expect.any(String),
        score: expect.any(Number),
      }),
    );
    expect('usd' in body.results[0] && 'observed' in body.results[0]).toBe(true);
    expect(body.total).toBeGreaterThanOrEqual(body.results.length);
    expect(body.hints[0]).toMatch(/GET \/catalog\/endpoints\//);
  });

  it('an empty query answers no rows, not an error', async () => {
    const { status, body } = await get('/catalog/search');
    expect(status).toBe(200);
    expect(body.results).toEqual([]);
  });

  it('limit caps the rows', async () => {
    const { body } = await get('/catalog/search?q=google&limit=1');
    expect(body.results).toHaveLength(1);
    expect(body.total).toBeGreaterThan(1);
  });

  it.each(['0', '101', 'ten', '2.5'])('limit=%s is a 422', async (v) => {
    const { status, body } = await get(`/catalog/search?q=email&limit=${v}`);
    expect(status).toBe(422);
    expect(body.detail[0].loc).toEqual(['query', 'limit']);
  });

  it('a parameter given twice is a 422 that says so, not a type error', async () => {
    for (const p of ['/catalog/search?q=email&limit=5&limit=6', '/catalog/search?q=a&q=b']) {
      const { status, body } = await get(p);
      expect(status, p).toBe(422);
      expect(body.detail[0].msg, p).toMatch(/^'(limit|q)' was given more than once; send it once\.$/);
    }
  });
});

describe('status lines', () => {
  it('carry the standard reason phrase, on the h3 routes and the fast paths alike', async () => {
    const cases: Array<[string, RequestInit, number, string]> = [
      ['/catalog/platforms', {}, 200, 'OK'],
      ['/catalog/endpoints/nobody', {}, 404, 'Not Found'],
      ['/teams/me', {}, 401, 'Unauthorized'],
      ['/px/people.email.verify', { method: 'POST', headers: { 'x-svc-token': 'svc_wrong' }, body: '{}' }, 401, 'Unauthorized'],
    ];
    // a status line exists on the wire only: these go through the socket whichever door the suite runs
    for (const [path, init, status, text] of cases) {
      const r = await fetch(base + path, init);
      expect([r.status, r.statusText], path).toEqual([status, text]);
    }
  });
});

describe('the static shards at their build paths', () => {
  it('are served as the files the build wrote, beside the live routes of the same names', async () => {
    for (const path of ['/catalog/endpoints/zerobounce.people.email.verify.json', '/catalog/platforms/people.json', '/catalog/manifest.json']) {
      const r = await get(path);
      expect(r.status, path).toBe(200);
      expect(r.type).toBe('application/json');
      expect(r.body).toEqual(JSON.parse(readFileSync(join(FIXTURE_DIST, path), 'utf8')));
    }
    expect((await get('/catalog/endpoints/nobody.json')).status).toBe(404);
    expect((await get('/catalog/platforms/nowhere.json')).status).toBe(404);
  });
});

describe('GET /catalog/endpoints/{id}', () => {
  it('answers the whole entry in one round trip, proxy URL filled in', async () => {
    const { status, body } = await get('/catalog/endpoints/svc.google.serp.organic');
    expect(status).toBe(200);
    expect(body.endpoint.id).toBe('svc.google.serp.organic');
    expect(body.routing.plan.map((p: { endpoint_id: string }) => p.endpoint_id)).toEqual(['searchco.google.serp.organic', 'searchco.google.serp.organic.rows']);
    expect(body.call_template).toContain('"https://api.example.test/px/google.serp.organic"');
    expect(body.example_response._svc.served_by).toBe('searchco.google.serp.organic');
    expect(body.siblings).toHaveLength(2);
  });

  it('a provider operation links back to its routed capability', async () => {
    const { body } = await get('/catalog/endpoints/zerobounce.people.email.verify');
    expect(body.provider).toEqual({ service: 'zerobounce', display_name: 'ZeroBounce' });
    expect(body.call_template).toContain('https://api.example.test/px/zerobounce/validate?email=');
    expect(body.hints.join(' ')).toContain('svc.people.email.verify');
    expect(body.example_response.status).toBe('valid');
  });

  it('an unknown id is a 404', async () => {
    const { status, body } = await get('/catalog/endpoints/nobody.people.enrich');
    expect(status).toBe(404);
    expect(typeof body.detail).toBe('string');
  });

  it("an id in another case, or a capability's name, is a 404 that names the id meant", async () => {
    for (const [sent, meant] of [
      ['ZeroBounce.people.email.verify', 'zerobounce.people.email.verify'],
      ['people.email.verify', 'svc.people.email.verify'],
      ['SVC.People.Email.Verify', 'svc.people.email.verify'],
      ['zerobounce.people.email.verfy', 'zerobounce.people.email.verify'],
      ['zerobounce.people.emial.verify', 'zerobounce.people.email.verify'],
    ]) {
      const { status, body } = await get(`/catalog/endpoints/${sent}`);
      expect([status, body.detail], sent).toEqual([404, `No endpoint '${sent}'; did you mean '${meant}'? GET /catalog/endpoints/${meant}`]);
    }
  });

  it('an unknown id is named as written, not as the path escaped it; a hub tool id points to its page', async () => {
    expect((await get('/catalog/endpoints/jane%20doe')).body.detail).toBe("No endpoint 'jane doe'. GET /catalog/search?q=… finds one.");
    const tool = await get('/catalog/endpoints/hub:email-check');
    expect([tool.status, tool.body.detail]).toEqual([
      404,
      "'hub:email-check' is a hub tool, not a catalog operation: GET /hub/tools/email-check shows it (with a team's credential).",
    ]);
  });

  it('a malformed percent-encoding in the path is a 400 with a sentence, on every path-parameter route', async () => {
    for (const p of ['/catalog/endpoints/%ZZ', '/catalog/platforms/a%ZZb', '/hub/tools/%E0%A4%A']) {
      const { status, body } = await get(p);
      expect([status, body.detail], p).toEqual([400, expect.stringMatching(/malformed percent-encoding.*%25/)]);
    }
  });
});

describe('GET /openapi.json', () => {
  it('is OpenAPI 3.1.0 at 0.0.1 with own endpoints, routed capabilities and the 422 schema', async () => {
    const { body } = await get('/openapi.json');
    expect(body.openapi).toBe('3.1.0');
    expect(body.info.version).toBe('0.0.1');
    for (const p of ['/meta', '/catalog/platforms', '/catalog/platforms/{slug}', '/catalog/search', '/catalog/find', '/catalog/endpoints/{endpoint_id}'])
      expect(body.paths[p]).toBeDefined();
    const routed = body.paths['/px/people.email.verify'].post;
    expect(routed.requestBody.content['application/json'].schema.properties.email).toBeDefined();
    expect(routed.parameters.map((h: { name: string }) => h.name)).toContain('X-Svc-Route-Max-Cost');
    expect(body.paths['/px/people.email.find'].post.parameters.map((h: { name: string }) => h.name)).toContain('X-Svc-Route-Verify');
    expect(body.paths['/px/google.serp.organic'].post.requestBody.content['application/json'].schema.properties.limit).toMatchObject({
      type: 'integer',
      minimum: 1,
      maximum: 100,
      default: 10,
    });
    expect(body.components.schemas.HTTPValidationError).toBeDefined();
    // the own endpoints publish the schemas their routes enforce
    const qParam = body.paths['/catalog/search'].get.parameters.find((x: { name: string }) => x.name === 'q');
    expect(qParam.schema).toEqual(searchQuery.properties.q);
    expect(body.paths['/teams/me/keys/{provider}'].post.requestBody.content['application/json'].schema).toEqual(keyBody);
    expect(body.paths['/admin/teams'].post.requestBody.content['application/json'].schema.properties.name).toMatchObject({ minLength: 1, maxLength: 100 });
  });
});

describe('static files of dist/', () => {
  it('serves the static catalog shards', async () => {
    const { status, body } = await get('/catalog/manifest.json');
    expect(status).toBe(200);
    expect(body.operations).toBe(14);
  });

  it('never serves a file outside dist/', async () => {
    for (const p of ['/../package.json', '/%2e%2e/package.json', '/..%2fpackage.json', '/catalog/..%2f..%2fpackage.json']) {
      const { status, body } = await get(p);
      expect(status, p).toBe(404);
      expect(JSON.stringify(body)).not.toContain('"name": "svc"');
    }
  });

  it('serves a file whose name holds a percent sign, decoded once', async () => {
    const file = join(FIXTURE_DIST, '100%.txt');
    writeFileSync(file, 'all of it');
    try {
      const r = await door('/100%25.txt');
      expect([r.status, await r.text()]).toEqual([200, 'all of it']);
      expect((await door('/100%2525.txt')).status).toBe(404); // not decoded twice into 100%.txt
    } finally {
      rmSync(file);
    }
  });

  it('unknown paths are a 404 with a sentence', async () => {
    const { status, body } = await get('/nothing-here');
    expect(status).toBe(404);
    expect(body.detail).toBe('Not found.');
  });
});
