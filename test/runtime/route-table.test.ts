// The route table (ROUTES in runtime/routes/app.ts) against the app made from it: every route the app
// serves is declared and every declared route is served with its handler; each answers 405 with its
// Allow to a method it does not take, and open ones answer any origin; /openapi.json publishes each
// with its request schemas, and publishes nothing undeclared. The path lists come from the table.
import { beforeAll, describe, expect, it } from 'vitest';
import type { H3, H3Route } from 'h3';
import { ROUTES, createApp } from '../../runtime/routes/app.ts';
import { documentedPath, h3Path, isCatchAll, pathParams, servedBy, type Route } from '../../runtime/http/declared-route.ts';
import type { DeclaredMeta } from '../../runtime/http/register-routes.ts';
import type { AppContext } from '../../runtime/context/context.ts';
import { testRuntime } from '../helpers/server.ts';
import { FIXTURE_DIST } from '../helpers/paths.ts';
import { ADMIN } from './app-helper.ts';

const PREFIX = '/px'; // not the default, so a route that ignored SVC_PROXY_PREFIX would show
const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
type Op = { parameters?: Array<{ name: string; in: string; schema: unknown }>; requestBody?: { content: Record<string, { schema: unknown }> } };

let app: H3;
let ctx: AppContext;
let token: string;
let doc: { paths: Record<string, Record<string, Op>> };
let served: Route[];
let headers: Record<string, string>;

/** a request path for a declared route: each parameter filled (a capability's with a real one) */
const concrete = (r: Route) =>
  pathParams(r).reduce(
    (p, name) => p.replace(new RegExp(`\\{${name}\\*?\\}`), name === 'capability' ? Object.keys(ctx.catalog.runtime.capabilities)[0] : 'x'),
    r.path.replace(/^\{proxy\}/, PREFIX),
  );
const call = (path: string, init: RequestInit = {}) => app.fetch(new Request(`http://svc.test${path}`, init));
const registered = (): H3Route[] => app['~routes'];

beforeAll(async () => {
  ({ app, ctx } = await testRuntime(FIXTURE_DIST, { SVC_ADMIN_TOKEN: ADMIN, SVC_PROXY_PREFIX: PREFIX }));
  token = (await ctx.state.createTeam('Table Co', 1_000_000))!.token;
  headers = { 'x-svc-token': token, 'x-svc-admin': ADMIN };
  doc = await (await call('/openapi.json')).json();
  served = servedBy(ROUTES, ctx.config);
});

describe('the app and the table', () => {
  it('serves exactly the declared routes, each with its handler, at its path', () => {
    const declaredOf = (h: H3Route) => (h.meta as DeclaredMeta | undefined)?.declared;
    expect(
      registered()
        .filter((h) => !declaredOf(h))
        .map((h) => `${h.method || 'ANY'} ${h.route}`),
    ).toEqual([]);
    expect(registered().map(declaredOf)).toEqual(served);
    for (const h of registered()) {
      const r = declaredOf(h)!;
      expect(typeof r.handle, r.path).toBe('function');
      expect(h.route, r.path).toBe(h3Path(r, PREFIX));
      expect(h.method || 'ANY', r.path).toBe(r.method === 'ANY' ? 'ANY' : r.method);
    }
  });

  it('serves the admin routes only with SVC_ADMIN_TOKEN, and a 404 for all of /admin/ without', async () => {
    expect(served.filter((r) => r.path.startsWith('/admin/')).length).toBeGreaterThan(3);
    const off = await testRuntime(FIXTURE_DIST, { SVC_ADMIN_TOKEN: '' });
    const offRoutes: H3Route[] = off.app['~routes'];
    expect(offRoutes.filter((h) => h.route?.startsWith('/admin/')).map((h) => h.route)).toEqual(['/admin/**']);
    expect(createApp(off.ctx)['~routes'].length).toBe(offRoutes.length);
  });

  it('takes every route group: no declared path is listed twice for one method', () => {
    const keys = ROUTES.map((r) => `${r.method} ${r.path} ${r.when ? 'when' : ''}`);
    expect(keys.length).toBe(new Set(keys).size);
  });
});

describe('credentials', () => {
  it('every route that needs one answers 401 without it, before looking at the input', async () => {
    const guarded = served.filter((r) => r.auth !== 'none');
    expect(guarded.length).toBeGreaterThan(20);
    for (const r of guarded) {
      const method = r.method === 'ANY' ? 'POST' : r.method;
      const body = method === 'GET' || method === 'DELETE' ? undefined : '{"not": "what it takes"}';
      const res = await call(`${concrete(r)}?limit=nonsense&cursor=x`, { method, body, headers: { 'content-type': 'application/json' } });
      expect(res.status, `${method} ${r.path}`).toBe(401);
    }
  });
});

describe('405, Allow and OPTIONS', () => {
  it('every declared route answers a method it does not take with 405 and its Allow', async () => {
    const specific = served.filter((r) => r.method !== 'ANY' && !isCatchAll(r));
    expect(specific.length).toBeGreaterThan(25);
    for (const r of specific) {
      const path = concrete(r);
      const taken = specific.filter((o) => o.path === r.path).map((o) => o.method as string);
      const allow = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'].filter((m) => taken.includes(m) || (m === 'HEAD' && taken.includes('GET')));
      const wrong = METHODS.find((m) => !taken.includes(m))!;
      const res = await call(path, { method: wrong, headers });
      expect(res.status, `${wrong} ${path}`).toBe(405);
      expect(res.headers.get('allow'), `${wrong} ${path}`).toBe(allow.join(', '));
      const options = await call(path, { method: 'OPTIONS' });
      expect(options.status, `OPTIONS ${path}`).toBe(204);
      expect(options.headers.get('allow'), `OPTIONS ${path}`).toBe([...allow, 'OPTIONS'].join(', '));
    }
  });

  it('only the routes declared open answer any origin, errors and preflights included', async () => {
    const reads = served.filter((r) => r.method === 'GET');
    expect(reads.filter((r) => r.open).length).toBeGreaterThan(6);
    for (const r of reads) {
      const path = concrete(r);
      const res = await call(path, { headers: { ...headers, origin: 'https://elsewhere.example' } });
      expect(res.headers.get('access-control-allow-origin'), `GET ${path}`).toBe(r.open ? '*' : null);
      if (isCatchAll(r)) continue; // a catch-all says nothing about methods, so OPTIONS there is not its to answer
      const preflight = await call(path, { method: 'OPTIONS', headers: { origin: 'https://elsewhere.example', 'access-control-request-method': 'GET' } });
      expect(preflight.headers.get('access-control-allow-origin'), `OPTIONS ${path}`).toBe(r.open ? '*' : null);
    }
  });
});

describe('/openapi.json and the table', () => {
  it('publishes every declared route with its method, parameters and request schemas', () => {
    for (const r of ROUTES.filter((x) => !x.openapi)) {
      const item = doc.paths[documentedPath(r, PREFIX)];
      for (const method of r.method === 'ANY' ? r.documentedMethods! : [r.method]) {
        const op = item?.[method.toLowerCase()];
        expect(op, `${method} ${r.path}`).toBeDefined();
        const params = op.parameters ?? [];
        expect(
          params.filter((p) => p.in === 'path').map((p) => p.name),
          r.path,
        ).toEqual(pathParams(r));
        for (const [name, schema] of Object.entries(r.request?.path?.properties ?? {}))
          expect(params.find((p) => p.name === name)?.schema, `${r.path} ${name}`).toEqual(schema);
        expect(
          params.filter((p) => p.in === 'query').map((p) => [p.name, p.schema]),
          r.path,
        ).toEqual(Object.entries(r.request?.query?.properties ?? {}));
        expect(
          params.some((p) => p.name === 'x-svc-org'),
          `${r.path}: x-svc-org with a team credential`,
        ).toBe(r.auth === 'team');
        if (r.request?.body) expect(op.requestBody?.content['application/json'].schema, r.path).toEqual(r.request.body);
        else if (!r.request?.stream) expect(op.requestBody, r.path).toBeUndefined();
      }
    }
  });

  it('publishes the routed call once per capability of the catalog', () => {
    const capabilities = Object.keys(ctx.catalog.runtime.capabilities);
    expect(capabilities.length).toBeGreaterThan(0);
    for (const name of capabilities) expect(doc.paths[`${PREFIX}/${name}`]?.post, name).toBeDefined();
  });

  it('publishes nothing that is not declared', () => {
    const capabilityPaths = new Set(Object.keys(ctx.catalog.runtime.capabilities).map((name) => `${PREFIX}/${name}`));
    const undeclared = Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.keys(ops)
        .filter((m) => {
          if (capabilityPaths.has(path)) return !ROUTES.some((r) => r.openapi === 'each-capability' && r.method.toLowerCase() === m);
          return !ROUTES.some(
            (r) =>
              !r.openapi && documentedPath(r, PREFIX) === path && (r.method === 'ANY' ? r.documentedMethods! : [r.method]).some((d) => d.toLowerCase() === m),
          );
        })
        .map((m) => `${m} ${path}`),
    );
    expect(undeclared).toEqual([]);
  });
});
