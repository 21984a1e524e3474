// `svc mcp`: the MCP server over stdio, a thin client of a running svc (SVC_URL, SVC_TOKEN). Every
// tool call is an HTTP call to it with the team's token; stdout belongs to the protocol.
import { defineCommand } from 'citty';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { loadTools, mcpServer } from '../runtime/mcp/server.ts';
import { svcFetch } from '../runtime/mcp/svc-http.ts';
import { svcTarget } from './target.ts';
import { CliFailure } from './fail.ts';
import { failureOf, request } from './http.ts';

export const mcp = defineCommand({
  meta: { name: 'mcp' },
  async run() {
    const { url, token } = svcTarget();
    // the credential is checked before the protocol, as /mcp does: an unreachable SVC_URL or a wrong
    // SVC_TOKEN is one sentence and its exit code (6, 4), not a server whose every tool call fails
    const me = await request(`${url}/teams/me`, { headers: { 'x-svc-token': token } });
    if (me.status !== 200) throw failureOf(me);
    const http = svcFetch(url, token, (r) => fetch(r));
    const tools = await loadTools(http).catch((e: Error) => {
      throw new CliFailure(`cannot read the catalog of ${url}: ${e.message}`);
    });
    await mcpServer(tools, http).connect(new StdioServerTransport());
  },
});
