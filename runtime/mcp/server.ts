// The MCP server over a set of tools. The SDK's low-level Server, not McpServer: McpServer takes
// zod shapes, while these tools come with JSON Schema straight from the catalog's contract.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import pkg from '../../package.json' with { type: 'json' };
import { catalogTools } from './catalog-tools.ts';
import { routedTools } from './routed-tools.ts';
import { errorResult } from './answers.ts';
import type { SvcFetch } from './svc-http.ts';
import type { McpTool } from './tool.ts';

/** every tool of the catalog svc at `http` serves (its OpenAPI document lists the routed capabilities) */
export async function loadTools(http: SvcFetch): Promise<McpTool[]> {
  const r = await http('/openapi.json');
  if (!r.ok) throw new Error(`svc answered ${r.status} to GET /openapi.json`);
  return [...catalogTools, ...routedTools((await r.json()) as Parameters<typeof routedTools>[0])];
}

export function mcpServer(tools: McpTool[], http: SvcFetch): Server {
  const server = new Server({ name: 'svc', version: pkg.version }, { capabilities: { tools: {} } });
  const byName = new Map(tools.map((t) => [t.name, t]));
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: tools.map(({ name, description, inputSchema }) => ({ name, description, inputSchema })),
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const tool = byName.get(request.params.name);
    if (!tool) return errorResult(404, { detail: `No tool '${request.params.name}'; tools/list names them.` });
    return tool.call(http, request.params.arguments ?? {});
  });
  return server;
}
