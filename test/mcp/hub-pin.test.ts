// A hub tool over MCP runs the version its listing showed, at that version's price, through the
// SDK's own client: a newer version at a higher price is never run in its place; once the listed
// version no longer serves the call is refused with the tool as now listed. A run takes max_cost
// (steps plus price) and dry_run as its route options, and a refusal names its call id.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { mcpAgent } from '../helpers/mcp-agent.ts';
import { hubWorld, type HubWorld } from '../hub/world.ts';
import { emailTool } from '../hub/tool-files.ts';
import { HubStore } from '../../runtime/hub/store.ts';
import { PIN_WINDOW_MS } from '../../runtime/hub/pin.ts';

let w: HubWorld;
let agent: Client;
let caller: { token: string; teamId: number };

type Result = { isError?: boolean; content: Array<{ type: string; text?: string }>; structuredContent?: Record<string, any> };
const call = async (args: Record<string, unknown>) => (await agent.callTool({ name: 'hub_priced-tool', arguments: args })) as Result;
const INPUT = { domain: 'nohit-checkco.com', full_name: 'Jane Doe' };
const priced = (usd: number) =>
  emailTool((f) => {
    f.tool.price_usd = usd;
  });
const balance = () => w.ctx.state.balance(caller.teamId);

beforeAll(async () => {
  w = await hubWorld();
  expect((await w.req('POST', '/hub/tools', { tool_id: 'priced-tool', files: priced(0.123457) }, w.other.token)).body.status).toBe('live');
  caller = await w.team('pinning caller', 10_000_000);
  expect((await w.req('PUT', '/hub/mcp-tools/priced-tool', undefined, caller.token)).status).toBe(200);
  agent = await mcpAgent(w.url, caller.token, 'svc-hub-pin-test');
}, 60_000);
afterAll(async () => {
  await agent?.close();
  await w.close();
});

describe('the version listed is the version run', () => {
  it('lists the version and its price, and takes the version back with max_cost and dry_run', async () => {
    const tool = (await agent.listTools()).tools.find((t) => t.name === 'hub_priced-tool')!;
    expect(tool.description).toMatch(/^Paid: \$0\.123457 a run .* Hub tool priced-tool@1, .* Send version 1: that version runs, at that price/);
    const props = tool.inputSchema.properties as Record<string, Record<string, unknown>>;
    expect(props.version).toMatchObject({ type: 'integer', const: 1 });
    expect(props.max_cost).toMatchObject({ type: 'number', minimum: 0 });
    expect(props.dry_run).toMatchObject({ type: 'boolean' });
    expect(tool.inputSchema.required).toEqual(['domain', 'full_name']);
  });

  it('a newer version at a higher price goes live meanwhile: the call runs the one listed, at its price', async () => {
    expect((await w.req('PUT', '/hub/tools/priced-tool', { files: priced(0.9) }, w.other.token)).body).toMatchObject({ version: 2, status: 'live' });
    const before = await balance();
    const r = await call({ ...INPUT, version: 1 });
    expect(r.isError).toBeFalsy();
    const svc = r.structuredContent!._svc;
    expect([svc.version, svc.price_micro]).toEqual([1, 123_457]);
    expect((await w.chargedByCall(caller.teamId)).get(svc.call_id)).toBe(svc.cost_micro);
    expect(before - (await balance())).toBe(svc.cost_micro);
  });

  it('a call by name alone runs the version listed now, at its price, as the HTTP run does; a version that is no number is refused', async () => {
    const before = await balance();
    const r = await call(INPUT);
    expect(r.isError).toBeFalsy();
    const svc = (r.structuredContent as { _svc: { version: number; price_micro: number; cost_micro: number } })._svc;
    expect([svc.version, svc.price_micro]).toEqual([2, 900_000]);
    expect(before - (await balance())).toBe(svc.cost_micro);
    const bad = await call({ ...INPUT, version: 'latest' });
    expect(bad.isError).toBe(true);
    expect(bad.content[0].text).toMatch(
      /^422: version: 'version' is the version tools\/list showed: svc runs that version, at its price \(hub_priced-tool is listed as priced-tool@2 at \$0\.90 a run\)\./,
    );
  });

  it('dry_run plans the version sent; max_cost below its price stops the run before any step', async () => {
    const before = await balance();
    const plan = await call({ ...INPUT, version: 2, dry_run: true });
    expect(plan.structuredContent).toMatchObject({ tool_id: 'priced-tool', version: 2, price_micro: 900_000 });
    expect(plan.structuredContent!.worst_cost_micro).toBeGreaterThan(900_000);
    const capped = await call({ ...INPUT, version: 2, max_cost: 0.5 });
    expect(capped.isError).toBeFalsy();
    expect(capped.structuredContent).toMatchObject({ output: null, _svc: { stopped: 'max_cost', cost_micro: 0 } });
    expect(await balance()).toBe(before);
    const bad = await call({ ...INPUT, version: 2, max_cost: -1 });
    expect(bad.content[0].text).toMatch(/^422: max_cost: 'max_cost' must be a non-negative USD amount.* \(call_id call_\w+\)$/);
  });

  it('once the listed version no longer serves, the call is refused with the tool as now listed; nothing is charged', async () => {
    // the newer version went live longer ago than the pin window
    await new HubStore(w.ctx.state.atomics).updateVersion('priced-tool', 2, (v) => ({
      ...v,
      live_at: new Date(Date.now() - PIN_WINDOW_MS - 60_000).toISOString(),
    }));
    const before = await balance();
    const r = await call({ ...INPUT, version: 1 });
    expect(r.isError).toBe(true);
    expect(r.content[0].text).toMatch(
      /^410: .* The tool changed since that listing: hub_priced-tool is listed as priced-tool@2 at \$0\.90 a run now; list the tools again\. \(call_id call_\w+\)$/,
    );
    expect(await balance()).toBe(before);
  });
});
