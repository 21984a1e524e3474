// /openapi.json against a real server on loopback: the answers the shared checks give (a credential
// for another team, a body that is not JSON or too large, a tool id the path cannot take) are
// listed on the operation that gives them, and a routed call's 200 fits the published shape, so a
// client generated from the document expects what it gets.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { FIXTURE_DIST } from '../helpers/paths.ts';
import { appContext, serve } from '../helpers/server.ts';
import { routedWorld } from '../helpers/routed.ts';
import { ADMIN } from './app-helper.ts';

type Op = { parameters?: Array<{ name: string; in: string }>; requestBody?: { content: Record<string, unknown> }; responses: Record<string, unknown> };
let base = '';
let token = '';
let close: () => Promise<void>;
let doc: { paths: Record<string, Record<string, Op>> };

beforeAll(async () => {
  const ctx = await appContext(FIXTURE_DIST, { SVC_ADMIN_TOKEN: ADMIN, SVC_MAX_BODY_BYTES: '2048' });
  token = (await ctx.state.createTeam('Docs', 0))!.token;
  await ctx.state.createTeam('Else', 0);
  const s = await serve(ctx);
  base = s.url;
  close = s.close;
  doc = await (await fetch(`${base}/openapi.json`)).json();
});
afterAll(() => close());

const json = { 'content-type': 'application/json' };
const big = JSON.stringify({ pad: 'x'.repeat(4096) });

describe('/openapi.json lists what the shared checks answer', () => {
  it('every operation taking x-svc-org lists 401 and 403; every one taking a JSON body lists 400, 413 and 422', () => {
    const missing: string[] = [];
    for (const [path, ops] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(ops)) {
        const want = [
          ...(op.parameters?.some((p) => p.name === 'x-svc-org') ? ['401', '403'] : []),
          ...(op.requestBody?.content['application/json'] ? ['400', '413', '422'] : []),
        ];
        for (const status of want) if (!(status in op.responses)) missing.push(`${method.toUpperCase()} ${path} ${status}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('each answer the server gives here is one the document lists for that operation', async () => {
    const capability = Object.keys(doc.paths).find((p) => /^\/proxy\/[a-z]+\.[a-z.]+$/.test(p))!;
    const me = { 'x-svc-token': token };
    const other = { ...me, 'x-svc-org': 'else' };
    const cases: Array<[string, string, string, RequestInit, number]> = [
      ['POST', '/hub/tools', '/hub/tools', { headers: { ...other, ...json }, body: '{}' }, 403],
      ['POST', '/hub/tools', '/hub/tools', { headers: { ...me, ...json }, body: '{bad' }, 400],
      ['PUT', '/hub/tools/some-tool', '/hub/tools/{tool_id}', { headers: { ...me, ...json }, body: '{bad' }, 400],
      ['POST', '/hub/tools/some-tool/run', '/hub/tools/{tool_id}/run', { headers: { ...me, ...json }, body: big }, 413],
      ['POST', '/hub/tools/some-tool/run', '/hub/tools/{tool_id}/run', { headers: { ...other, ...json }, body: '{}' }, 403],
      ['GET', '/hub/tools/some-tool/runs', '/hub/tools/{tool_id}/runs', { headers: other }, 403],
      ['DELETE', '/hub/tools/some-tool@1', '/hub/tools/{tool_id}', { headers: me }, 422],
      ['POST', '/hub/tools/some-tool@0/check', '/hub/tools/{tool_id}/check', { headers: me }, 422],
      ['POST', '/reviews', '/reviews', { headers: { ...me, ...json }, body: big }, 413],
      ['GET', '/teams/me/ledger', '/teams/me/ledger', { headers: other }, 403],
      ['POST', '/auth/session', '/auth/session', { headers: json, body: '{bad' }, 400],
      ['POST', '/admin/teams/docs/credit', '/admin/teams/{team}/credit', { headers: { 'x-svc-admin': ADMIN, ...json }, body: '{bad' }, 400],
      ['POST', capability, capability, { headers: { ...me, ...json }, body: '{bad' }, 400],
      ['POST', capability, capability, { headers: { ...other, ...json }, body: '{}' }, 403],
    ];
    const wrong: string[] = [];
    for (const [method, path, documented, init, status] of cases) {
      const res = await fetch(base + path, { method, ...init });
      await res.body?.cancel();
      if (res.status !== status) wrong.push(`${method} ${path}: answered ${res.status}, expected ${status}`);
      if (!(String(status) in doc.paths[documented][method.toLowerCase()].responses)) wrong.push(`${method} ${documented}: ${status} not documented`);
    }
    expect(wrong).toEqual([]);
  });
});

describe("/openapi.json's shape of a routed call's 200", () => {
  it('fits both what a call answers and what a dry run answers', async () => {
    const w = await routedWorld(FIXTURE_DIST);
    try {
      const published = (await w.call('/openapi.json')).body;
      const op = published.paths['/proxy/people.email.find'].post;
      // the components inlined as $defs, so ajv resolves the document's own references
      const schema = JSON.parse(JSON.stringify(op.responses['200'].content['application/json'].schema).replaceAll('#/components/schemas/', '#/$defs/'));
      const defs = JSON.parse(JSON.stringify(published.components.schemas).replaceAll('#/components/schemas/', '#/$defs/'));
      const fits = new Ajv2020({ strict: false, allErrors: true }).compile({ ...schema, $defs: defs });
      const body = { domain: 'acme.com', full_name: 'Ann Lee' };
      const call = await w.call('/proxy/people.email.find', body);
      const dry = await w.call('/proxy/people.email.find', body, { 'X-Svc-Route-Dry-Run': '1' });
      for (const answer of [call, dry]) {
        expect(answer.status).toBe(200);
        expect(fits(answer.body), JSON.stringify(fits.errors)).toBe(true);
      }
      expect(dry.body).toHaveProperty('plan');
    } finally {
      await w.close();
    }
  });
});
