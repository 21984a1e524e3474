// /openapi.json against the app itself: every route the app serves is described, with the request
// schemas the routes validate with.
import { beforeAll, describe, expect, it } from 'vitest';
import type { H3Route } from 'h3';
import { testApp } from './app-helper.ts';
import * as schemas from '../../runtime/http/request-schemas.ts';
import type { DeclaredMeta } from '../../runtime/http/register-routes.ts';

type Op = { requestBody?: { content: Record<string, { schema: unknown }> }; parameters?: Array<{ name: string; in: string; schema: unknown }> };
let doc: { paths: Record<string, Record<string, Op>> };
let routes: H3Route[];

/** a route pattern (`/a/:id`, `/p/**`) as a test over OpenAPI paths, where `{x}` or a concrete name stands for a parameter */
const matcher = (route: string) =>
  new RegExp(
    `^${route
      .replace(/[.+?^$()|[\]\\]/g, '\\$&')
      .replace(/\*\*$/, '.+')
      .replace(/:[a-z_]+/gi, '[^/]+')}$`,
  );

beforeAll(async () => {
  const t = await testApp({ SVC_PROXY_PREFIX: '/px' });
  doc = await (await t.call('/openapi.json')).json();
  routes = t.app['~routes'];
});

describe('GET /openapi.json', () => {
  it('describes every route of the app, with its method', () => {
    // the files of dist/ (dashboard, static catalog) are documents, not an API: declared `openapi: 'omit'`
    const api = routes.filter((r) => r.route && (r.meta as DeclaredMeta).declared.openapi !== 'omit');
    expect(api.length).toBeGreaterThan(15);
    const missing = api.filter((r) => {
      const re = matcher(r.route!);
      const method = r.method?.toLowerCase();
      return !Object.entries(doc.paths).some(([path, ops]) => re.test(path) && (method ? method in ops : Object.keys(ops).length > 0));
    });
    expect(missing.map((r) => `${r.method ?? 'ALL'} ${r.route}`)).toEqual([]);
  });

  it('lists the route headers on the batch call too, since they apply to every row', () => {
    const names = doc.paths['/px/{capability}/batch'].post.parameters!.filter((p) => p.in === 'header').map((p) => p.name);
    expect(names).toEqual(
      expect.arrayContaining(['X-Svc-Route-Max-Cost', 'X-Svc-Route-Dry-Run', 'X-Svc-Route-Verify', 'X-Svc-Batch-Max-Cost', 'X-Svc-Batch-Concurrency']),
    );
  });

  it('publishes the feedback and review schemas the routes enforce', () => {
    const bodyOf = (path: string) => doc.paths[path].post.requestBody!.content['application/json'].schema;
    expect(bodyOf('/feedback')).toEqual(schemas.feedbackBody);
    expect(bodyOf('/reviews')).toEqual(schemas.reviewBody);
    const id = doc.paths['/feedback/{feedback_id}'].get.parameters!.find((p) => p.name === 'feedback_id')!;
    expect(id).toMatchObject({ in: 'path', schema: schemas.feedbackParams.properties.feedback_id });
    expect(bodyOf('/auth/session')).toEqual(schemas.sessionBody);
    expect(bodyOf('/admin/teams/{team}/credit')).toEqual(schemas.creditBody);
  });
});
