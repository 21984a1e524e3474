// The SDK's own Client over both transports (Streamable HTTP at /mcp, and `svc mcp` over stdio
// against the running server) lists the tools and calls a routed tool against the sandbox.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { FIXTURE_DIST, ROOT } from '../helpers/paths.ts';
import { routedWorld, type RoutedWorld } from '../helpers/routed.ts';
import { emailTool } from '../hub/tool-files.ts';
import { svcCli } from '../helpers/cli.ts';

let w: RoutedWorld;
let brokeToken: string;

beforeAll(async () => {
  w = await routedWorld(FIXTURE_DIST);
  brokeToken = (await w.ctx.state.createTeam('broke mcp team', 0))!.token;
  // a live hub tool of this team, and one that failed its check (never listed)
  expect((await w.call('/hub/tools', { tool_id: 'verified-email', files: emailTool() })).body.status).toBe('live');
  const failing = emailTool((f) => {
    f.check.expect = { status: 'risky' };
  });
  expect((await w.call('/hub/tools', { tool_id: 'never-live', files: failing })).body.status).toBe('failed');
});
afterAll(() => w.close());

const transports: Record<string, (token: string) => Transport> = {
  'streamable HTTP': (token) => new StreamableHTTPClientTransport(new URL(`${w.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${token}` } } }),
  stdio: (token) =>
    new StdioClientTransport({
      command: process.execPath,
      args: [`${ROOT}/bin/svc.js`, 'mcp'],
      cwd: ROOT,
      stderr: 'pipe',
      env: { PATH: process.env.PATH ?? '', SVC_URL: w.url, SVC_TOKEN: token },
    }),
};

type Result = { isError?: boolean; structuredContent?: Record<string, any>; content: Array<{ type: string; text?: string }> };

describe.each(Object.keys(transports))('over %s', (name) => {
  let client: Client;
  let broke: Client;
  const call = async (c: Client, tool: string, args: Record<string, unknown>) => (await c.callTool({ name: tool, arguments: args })) as Result;

  beforeAll(async () => {
    client = new Client({ name: 'svc-test', version: '1.0.0' });
    await client.connect(transports[name](w.token));
    broke = new Client({ name: 'svc-test-broke', version: '1.0.0' });
    await broke.connect(transports[name](brokeToken));
  }, 30_000);
  afterAll(async () => {
    await client.close();
    await broke.close();
  });

  it('lists the catalog tools and one tool per routed capability, generated from the catalog', async () => {
    const { tools } = await client.listTools();
    const names = tools.map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(['search_catalog', 'find_operations', 'show_operation', 'people_email_verify', 'google_serp_organic']));
    expect(names.filter((n) => !['search_catalog', 'find_operations', 'show_operation'].includes(n) && !n.startsWith('hub_')).sort()).toEqual(
      Object.keys(w.ctx.catalog.runtime.capabilities)
        .map((c) => c.replace(/\./g, '_'))
        .sort(),
    );
    const verify = tools.find((t) => t.name === 'people_email_verify')!;
    expect(Object.keys(verify.inputSchema.properties!)).toEqual(expect.arrayContaining(['email', 'max_cost', 'prefer', 'exclude', 'waterfall', 'dry_run']));
    expect(verify.description).toContain(w.ctx.catalog.runtime.capabilities['people.email.verify'].description);
  });

  it('a hit answers the output, who served and what it cost', async () => {
    const r = await call(client, 'people_email_verify', { email: `mcp-${name.length}@acme.com` });
    expect(r.isError).toBeFalsy();
    expect(r.structuredContent).toMatchObject({
      hit: true,
      served_by: expect.stringContaining('people.email.verify'),
      cost_micro: expect.any(Number),
      call_id: expect.stringMatching(/^call_/),
    });
    expect(r.structuredContent!.cost_usd).toBe(r.structuredContent!.cost_micro / 1e6);
    expect(r.structuredContent!.output.status).toEqual(expect.any(String));
  });

  it('a miss is a normal answer, not an error', async () => {
    const r = await call(client, 'people_email_verify', { email: 'nohit@acme.com' });
    expect(r.isError).toBeFalsy();
    expect(r.structuredContent).toMatchObject({ hit: false, served_by: null });
  });

  it('route options are arguments: a dry run plans without charging', async () => {
    const before = await w.ctx.state.balance(w.teamId);
    const r = await call(client, 'people_email_verify', { email: 'plan@acme.com', dry_run: true, exclude: ['zerobounce'] });
    expect(r.isError).toBeFalsy();
    expect(r.structuredContent!.plan.map((p: { endpoint_id: string }) => p.endpoint_id)).toEqual(['checkco.people.email.verify']);
    expect(await w.ctx.state.balance(w.teamId)).toBe(before);
  });

  it("refusals are tool errors with svc's sentence: 422 and 402", async () => {
    const bad = await call(client, 'people_email_verify', { emial: 'x@acme.com' });
    expect(bad.isError).toBe(true);
    expect(bad.content[0].text).toMatch(/^422: /);
    const poor = await call(broke, 'people_email_verify', { email: 'poor@acme.com' });
    expect(poor.isError).toBe(true);
    // a paid call's refusal names its call id, as every answer of a paid door does
    expect(poor.content[0].text).toMatch(/^402: Balance too low.* \(call_id call_\w+\)$/);
  });

  it("lists the team's own live hub tools, and runs one on the caller's balance", async () => {
    const { tools } = await client.listTools();
    const hub = tools.filter((t) => t.name.startsWith('hub_'));
    expect(hub.map((t) => t.name)).toEqual(['hub_verified-email']);
    expect(hub[0].inputSchema.required).toEqual(['domain', 'full_name']);
    // another team lists it only once it adds it to its MCP set (test/mcp/hub-set.test.ts)
    expect((await broke.listTools()).tools.map((t) => t.name)).not.toContain('hub_verified-email');
    const before = await w.ctx.state.balance(w.teamId);
    const r = await call(client, 'hub_verified-email', { domain: 'nohit-checkco.com', full_name: 'Jane Doe', version: 1 });
    expect(r.isError).toBeFalsy();
    expect(r.structuredContent!.output).toMatchObject({ status: 'deliverable' });
    expect(await w.ctx.state.balance(w.teamId)).toBeLessThan(before);
    expect((await call(client, 'hub_never-live', { domain: 'acme.com', full_name: 'Jane Doe' })).isError).toBe(true);
  });

  it('the catalog tools answer from the catalog', async () => {
    const found = await call(client, 'search_catalog', { q: 'email verify' });
    const first = found.structuredContent!.results[0];
    expect(first.endpoint_id).toEqual(expect.any(String));
    const shown = await call(client, 'show_operation', { endpoint_id: first.endpoint_id });
    expect(shown.structuredContent!.endpoint.id).toBe(first.endpoint_id);
    const jobs = await call(client, 'find_operations', { q: 'check that an email address is deliverable' });
    expect(jobs.structuredContent!.rows.length).toBeGreaterThan(0);
  });

  it('show_operation gives the operation in full and each sibling in brief (who, price, how it fares), show_operation for the rest', async () => {
    const id = 'svc.people.email.find';
    const entry = (await (await fetch(`${w.url}/catalog/endpoints/${id}`)).json()) as { siblings: Array<Record<string, any>> };
    expect(entry.siblings.length).toBeGreaterThan(1);
    const shown = await call(client, 'show_operation', { endpoint_id: id });
    const { siblings, ...rest } = shown.structuredContent!;
    const { siblings: _full, ...entryRest } = entry;
    expect(rest).toEqual(entryRest);
    expect(siblings.map((s: { id: string; cost: { usd: number } }) => [s.id, s.cost.usd])).toEqual(entry.siblings.map((s) => [s.id, s.cost.usd]));
    const brief = ['id', 'name', 'provider', 'provider_display', 'kind', 'status', 'platform_eligible', 'cost', 'observed', 'reviews'];
    for (const s of siblings) expect(Object.keys(s).filter((k) => !brief.includes(k))).toEqual([]);
    expect(JSON.stringify(siblings).length).toBeLessThan(JSON.stringify(entry.siblings).length / 2);
  });
});

describe('svc mcp refuses to start without a working svc and token', () => {
  it("a bad SVC_TOKEN is the server's 401 sentence (exit 4); nothing listening at SVC_URL is exit 6", async () => {
    expect(await svcCli(['mcp'], { SVC_URL: w.url, SVC_TOKEN: 'svc_nope' })).toEqual({ code: 4, stdout: '', stderr: 'svc: The x-svc-token is not valid.\n' });
    const gone = await svcCli(['mcp'], { SVC_URL: 'http://127.0.0.1:9', SVC_TOKEN: w.token });
    expect([gone.code, gone.stdout]).toEqual([6, '']);
    expect(gone.stderr).toMatch(/^svc: Cannot reach http:\/\/127\.0\.0\.1:9 .*is SVC_URL right\?\n$/);
  });
});

describe('/mcp credentials', () => {
  it('401 without a token, or with a bad one', async () => {
    const init = (headers: Record<string, string>) => ({
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
      body: '{"jsonrpc":"2.0","id":1,"method":"tools/list"}',
    });
    const none = await fetch(`${w.url}/mcp`, init({}));
    expect(none.status).toBe(401);
    // both ways of sending the token work here, so the sentence names both
    expect((await none.json()).detail).toMatch(/x-svc-token header or as Authorization: Bearer/);
    const bad = await fetch(`${w.url}/mcp`, init({ authorization: 'Bearer svc_nope' }));
    expect(bad.status).toBe(401);
    expect((await bad.json()).detail).toMatch(/x-svc-token or Authorization: Bearer/);
    expect((await fetch(`${w.url}/mcp`, init({ 'x-svc-token': w.token }))).status).not.toBe(401);
  });

  it('GET and DELETE are a 405 at once (stateless: no stream to open, no session to close), never a stream held open', async () => {
    for (const method of ['GET', 'DELETE']) {
      const r = await fetch(`${w.url}/mcp`, {
        method,
        headers: { accept: 'application/json, text/event-stream', 'x-svc-token': w.token },
        signal: AbortSignal.timeout(5000),
      });
      expect([method, r.status, r.headers.get('allow')]).toEqual([method, 405, 'POST']);
      expect(typeof (await r.json()).detail).toBe('string');
    }
  });

  it('413 for a body over the request limit, as on every other endpoint', async () => {
    const big = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { pad: 'x'.repeat(70_000) } });
    const r = await fetch(`${w.url}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'x-svc-token': w.token },
      body: big,
    });
    expect(r.status).toBe(413);
  });
});

describe('GET /hub/tools', () => {
  it('lists live tools to every team (the maker its own that are not live too), and a retired tool no more', async () => {
    const list = async (token: string) =>
      ((await (await fetch(`${w.url}/hub/tools`, { headers: { 'x-svc-token': token } })).json()) as { tools: Array<{ tool_id: string; mine: boolean }> }).tools;
    expect(await list(w.token)).toEqual([
      expect.objectContaining({ tool_id: 'verified-email', mine: true, status: 'live' }),
      expect.objectContaining({ tool_id: 'never-live', mine: true, status: 'failed' }),
    ]);
    expect(await list(brokeToken)).toEqual([expect.objectContaining({ tool_id: 'verified-email', mine: false })]);
    expect((await fetch(`${w.url}/hub/tools/verified-email`, { method: 'DELETE', headers: { 'x-svc-token': w.token } })).status).toBe(200);
    expect(await list(brokeToken)).toEqual([]);
    expect((await fetch(`${w.url}/hub/tools`)).status).toBe(401);
  });
});
