// The MCP server over the catalog's tools and the hub tools of the caller's MCP set, with
// instructions that say how money works. The SDK's low-level Server, not McpServer: McpServer takes
// zod shapes, while these tools come with JSON Schema straight from the catalog's contract.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import pkg from '../../package.json' with { type: 'json' };
import { catalogTools } from './catalog-tools.ts';
import { routedTools } from './routed-tools.ts';
import { errorResult } from './answers.ts';
import { hubListings, hubToolId, runHubTool } from './hub-tools.ts';
import { INSTRUCTIONS } from './instructions.ts';
import type { SvcFetch } from './svc-http.ts';
import type { McpTool } from './tool.ts';

/** every tool of the catalog svc at `http` serves (its OpenAPI document lists the routed capabilities) */
export async function loadTools(http: SvcFetch): Promise<McpTool[]> {
  const r = await http('/openapi.json');
  if (!r.ok) throw new Error(`svc answered ${r.status} to GET /openapi.json`);
  return [...catalogTools, ...routedTools((await r.json()) as Parameters<typeof routedTools>[0])];
}

export function mcpServer(tools: McpTool[], http: SvcFetch): Server {
  const server = new Server({ name: 'svc', version: pkg.version }, { capabilities: { tools: {} }, instructions: INSTRUCTIONS });
  const byName = new Map(tools.map((t) => [t.name, t]));
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: [...tools, ...(await hubListings(http))].map(({ name, title, description, inputSchema, annotations }) => ({
      name,
      title,
      description,
      inputSchema,
      annotations,
    })),
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const { name, arguments: args = {} } = request.params;
    const tool = byName.get(name);
    if (tool) return tool.call(http, args);
    // a hub tool: svc answers whether the caller may run it (404 when it may not see it)
    const hubId = hubToolId(name);
    if (hubId) return runHubTool(http, hubId, args);
    return errorResult(404, { detail: `No tool '${name}'; tools/list names them.` });
  });
  return server;
}
