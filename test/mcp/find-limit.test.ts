// Over /mcp the tools call svc in-process; the job finder's per-client limit must still count the
// agent's address, not one shared bucket for every MCP caller.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { FIXTURE_DIST } from '../helpers/paths.ts';
import { routedWorld, type RoutedWorld } from '../helpers/routed.ts';

let w: RoutedWorld;
beforeAll(async () => {
  w = await routedWorld(FIXTURE_DIST, { env: { SVC_FIND_RATE_PER_MINUTE: '1', SVC_TRUST_PROXY: '1' } });
});
afterAll(() => w.close());

async function clientFrom(address: string): Promise<Client> {
  const client = new Client({ name: 'svc-test', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${w.url}/mcp`), { requestInit: { headers: { 'x-svc-token': w.token, 'x-forwarded-for': address } } }),
  );
  return client;
}

it('find_operations is rate limited per agent address', async () => {
  const a = await clientFrom('203.0.113.1');
  const b = await clientFrom('203.0.113.2');
  const find = (c: Client) =>
    c.callTool({ name: 'find_operations', arguments: { q: 'verify an email' } }) as Promise<{ isError?: boolean; content: Array<{ text: string }> }>;
  expect((await find(a)).isError).toBeFalsy();
  const again = await find(a);
  expect(again.isError).toBe(true);
  expect(again.content[0].text).toMatch(/^429: /);
  expect((await find(b)).isError).toBeFalsy();
  await a.close();
  await b.close();
});
