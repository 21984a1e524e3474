// What an agent is told, through the SDK's own client over Streamable HTTP: annotations on every
// tool (free catalog reads vs paid calls), server instructions on how money works, routed tools
// offering `verify` only where the capability verifies, and refusals named by argument, not header.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { mcpAgent } from '../helpers/mcp-agent.ts';
import { FIXTURE_DIST } from '../helpers/paths.ts';
import { routedWorld, type RoutedWorld } from '../helpers/routed.ts';

let w: RoutedWorld;
let client: Client;
type Result = { isError?: boolean; content: Array<{ type: string; text?: string }> };
const call = async (name: string, args: Record<string, unknown>) => (await client.callTool({ name, arguments: args })) as Result;

beforeAll(async () => {
  w = await routedWorld(FIXTURE_DIST);
  client = await mcpAgent(w.url, w.token, 'svc-agent-terms-test');
}, 60_000);
afterAll(async () => {
  await client?.close();
  await w.close();
});

describe('an agent can tell free from paid, and knows how money works', () => {
  it('every tool carries annotations: catalog reads are read-only and closed, routed calls are paid and open-world', async () => {
    const { tools } = await client.listTools();
    for (const t of tools) expect([t.name, t.annotations]).toEqual([t.name, expect.any(Object)]);
    for (const name of ['search_catalog', 'find_operations', 'show_operation']) {
      const t = tools.find((x) => x.name === name)!;
      expect(t.annotations).toEqual({ readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false });
      expect(t.title).toMatch(/\(free\)$/);
    }
    const routed = tools.filter((t) => !['search_catalog', 'find_operations', 'show_operation'].includes(t.name) && !t.name.startsWith('hub_'));
    expect(routed.length).toBe(Object.keys(w.ctx.catalog.runtime.capabilities).length);
    for (const t of routed) {
      expect(t.annotations).toEqual({ readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true });
      expect(t.title).toMatch(/\(paid\)$/);
      expect(t.description).toMatch(/^Paid: /);
    }
  });

  it('the server instructions say who pays, the ceiling, the dry run and misses', () => {
    const text = client.getInstructions()!;
    expect(text).toMatch(/charges the balance of the team whose token this session uses/);
    expect(text).toMatch(/max_cost USD \(default 1\.00\)/);
    expect(text).toMatch(/dry_run: true answers the plan and its worst cost without calling or charging/);
    expect(text).toMatch(/a miss \(hit: false\) is a normal answer/);
    expect(text).toMatch(/search_catalog, find_operations and show_operation only read/);
  });
});

describe("routed tools in the agent's terms", () => {
  it('offer verify only where the capability has verification', async () => {
    const { tools } = await client.listTools();
    const caps = w.ctx.catalog.runtime.capabilities;
    const verifiable = Object.keys(caps).filter((c) => caps[c].verify);
    expect(verifiable.length).toBeGreaterThan(0);
    expect(verifiable.length).toBeLessThan(Object.keys(caps).length);
    for (const [cap, c] of Object.entries(caps)) {
      const t = tools.find((x) => x.name === cap.replace(/\./g, '_'))!;
      expect([cap, Object.hasOwn(t.inputSchema.properties!, 'verify')]).toEqual([cap, Boolean(c.verify)]);
      expect(Object.keys(t.inputSchema.properties!)).toEqual(expect.arrayContaining(['max_cost', 'prefer', 'exclude', 'waterfall', 'dry_run']));
    }
  });

  it('verify where it applies plans a verification; sent where it does not, it is an unknown argument', async () => {
    const planned = (await client.callTool({
      name: 'people_email_find',
      arguments: { domain: 'acme.com', full_name: 'Jane Doe', verify: true, dry_run: true },
    })) as Result & { structuredContent?: Record<string, any> };
    expect(planned.isError).toBeFalsy();
    expect(planned.structuredContent!.verification).toMatchObject({ capability: 'people.email.verify' });
    const r = await call('people_email_verify', { email: 'jane@acme.com', verify: true });
    expect(r.isError).toBe(true);
    expect(r.content[0].text).toMatch(/^422: verify: .*'verify'/);
    expect(r.content[0].text).not.toMatch(/X-Svc|header/i);
  });

  it('refusals name arguments, never the headers or request parts they became', async () => {
    const cost = await call('people_email_verify', { email: 'jane@acme.com', max_cost: 'cheap' });
    expect(cost.isError).toBe(true);
    expect(cost.content[0].text).toMatch(/^422: max_cost: 'max_cost' must be a non-negative USD amount/);
    const prefer = await call('people_email_verify', { email: 'jane@acme.com', prefer: ['nosuchprovider'] });
    expect(prefer.content[0].text).toMatch(/^422: prefer: 'nosuchprovider' is not a provider of people\.email\.verify/);
    const email = await call('people_email_verify', { email: 'not an address' });
    expect(email.content[0].text).toMatch(/^422: email: /);
    for (const r of [cost, prefer, email]) expect(r.content[0].text).not.toMatch(/X-Svc|header\.|body\./i);
  });

  it('a max_cost below a micro-USD is sent as decimal text and stops the call before anything is charged', async () => {
    const before = await w.ctx.state.balance(w.teamId);
    const r = (await client.callTool({ name: 'people_email_verify', arguments: { email: 'tiny@acme.com', max_cost: 1e-7 } })) as Result & {
      structuredContent?: Record<string, any>;
    };
    expect(r.isError).toBeFalsy();
    expect(r.structuredContent).toMatchObject({ hit: false, stopped: 'max_cost', cost_micro: 0 });
    expect(await w.ctx.state.balance(w.teamId)).toBe(before);
  });
});
