// Team isolation on every hub operation: no credential is 401; another team gets 404 for a tool it
// may not see (never live, or a version that is not live) and 403 for the maker's own actions.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hubWorld, type HubWorld } from './world.ts';
import { emailTool } from './tool-files.ts';

let w: HubWorld;
beforeAll(async () => {
  w = await hubWorld();
  expect((await w.req('POST', '/hub/tools', { tool_id: 'shown-tool', files: emailTool() })).body.status).toBe('live');
  // version 2 fails its check: the maker sees it, nobody else does
  const failing = emailTool((f) => {
    f.check = { input: { domain: 'acme.com', full_name: 'Jane Doe' }, expect: { email: 'jane@acme.com' } };
  });
  expect((await w.req('PUT', '/hub/tools/shown-tool', { files: failing })).body.status).toBe('failed');
  expect((await w.req('POST', '/hub/tools', { tool_id: 'hidden-tool', files: failing })).body.status).toBe('failed');
});
afterAll(() => w.close());

const ops = (id: string): Array<[string, string, unknown]> => [
  ['GET', `/hub/tools/${id}`, undefined],
  ['PUT', `/hub/tools/${id}`, { files: emailTool() }],
  ['DELETE', `/hub/tools/${id}`, undefined],
  ['POST', `/hub/tools/${id}@1/check`, undefined],
  ['POST', `/hub/tools/${id}/run`, { input: { domain: 'acme.com', full_name: 'Jane Doe' } }],
  ['GET', `/hub/tools/${id}/runs`, undefined],
];

describe('hub isolation', () => {
  it('every operation without a credential is 401, with a bad one 401, with x-svc-org of another team 403', async () => {
    for (const [method, path, body] of [...ops('shown-tool'), ['POST', '/hub/tools', { tool_id: 'x-tool', files: emailTool() }] as [string, string, unknown]]) {
      expect((await w.req(method, path, body, null)).status, `${method} ${path}`).toBe(401);
      expect((await w.req(method, path, body, 'svc_' + 'x'.repeat(32))).status, `${method} ${path}`).toBe(401);
      const r = await fetch(w.url + path, {
        method,
        headers: { 'x-svc-token': w.token, 'x-svc-org': w.other.slug, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      expect(r.status, `${method} ${path}`).toBe(403);
    }
  });

  it('a tool that never went live is 404 to another team, whatever the operation', async () => {
    for (const [method, path, body] of ops('hidden-tool')) expect((await w.req(method, path, body, w.other.token)).status, `${method} ${path}`).toBe(404);
  });

  it("a live tool shows another team its live versions only, and refuses it the maker's actions with 403", async () => {
    const seen = await w.req('GET', '/hub/tools/shown-tool', undefined, w.other.token);
    expect(seen.status).toBe(200);
    expect(seen.body.versions).toEqual([expect.objectContaining({ version: 1, status: 'live' })]);
    for (const hidden of ['files', 'earnings_micro', 'runs', 'reason', 'check']) expect(seen.body).not.toHaveProperty(hidden);
    expect((await w.req('GET', '/hub/tools/shown-tool@2', undefined, w.other.token)).status).toBe(404);
    expect((await w.req('POST', '/hub/tools/shown-tool@2/run', { input: { domain: 'a.com', full_name: 'Jane Doe' } }, w.other.token)).status).toBe(404);
    for (const [method, path, body] of ops('shown-tool')
      .filter(([m, p]) => m !== 'GET' || p.endsWith('/runs'))
      .filter(([, p]) => !p.endsWith('/run'))) {
      expect((await w.req(method, path, body, w.other.token)).status, `${method} ${path}`).toBe(403);
    }
    // who may publish is answered before the files are read
    expect((await w.req('PUT', '/hub/tools/shown-tool', { files: { ...emailTool(), 'tool.json': '{' } }, w.other.token)).status).toBe(403);
    expect((await w.req('PUT', '/hub/tools/hidden-tool', { files: { ...emailTool(), 'tool.json': '{' } }, w.other.token)).status).toBe(404);
    const mine = await w.req('GET', '/hub/tools/shown-tool');
    expect(mine.body.versions.map((v: { status: string }) => v.status)).toEqual(['live', 'failed']);
    expect(mine.body).toMatchObject({ version: 2, live_version: 1, status: 'failed' });
  });

  it('an unknown tool is 404; a malformed reference, or @N on an action for the whole tool, 422', async () => {
    expect((await w.req('GET', '/hub/tools/no-such-tool')).status).toBe(404);
    const bad = await w.req('GET', '/hub/tools/Bad@x');
    expect(bad.status).toBe(422);
    expect(bad.body.detail[0].loc).toEqual(['path', 'tool_id']);
    // a version on an action for the whole tool is refused, not ignored: DELETE x@2 must not retire x
    const pinnedDelete = await w.req('DELETE', '/hub/tools/shown-tool@2');
    expect(pinnedDelete.status).toBe(422);
    expect(pinnedDelete.body.detail[0].msg).toMatch(/Retiring applies to the whole tool/);
    expect((await w.req('GET', '/hub/tools/shown-tool')).body.retired_at).toBeUndefined();
    expect((await w.req('PUT', '/hub/tools/shown-tool@1', { files: emailTool() })).status).toBe(422);
    expect((await w.req('GET', '/hub/tools/shown-tool@1/runs')).status).toBe(422);
  });
});

describe('/openapi.json', () => {
  it('lists every hub endpoint with the request schemas the routes enforce', async () => {
    const doc = await (await fetch(`${w.url}/openapi.json`)).json();
    expect(Object.keys(doc.paths['/hub/tools/{tool_id}']).sort()).toEqual(['delete', 'get', 'put']);
    for (const path of ['/hub/tools', '/hub/tools/{tool_id}/check', '/hub/tools/{tool_id}/run', '/hub/tools/{tool_id}/runs'])
      expect(doc.paths[path], path).toBeDefined();
    const publish = doc.paths['/hub/tools'].post.requestBody.content['application/json'].schema;
    expect(publish.required).toEqual(['tool_id', 'files']);
    expect(publish.properties.files.required).toEqual(['tool.json', 'input.schema.json', 'output.schema.json', 'check.json']);
  });
});
