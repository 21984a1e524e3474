// One /mcp request answered by a server of its own over Streamable HTTP, stateless, in JSON. The
// route imports this module on its first request: the MCP SDK (and the zod it brings) weighs about
// 25 MB and 100 ms at start, which a server nobody reaches over MCP need not pay.
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { mcpServer } from './server.ts';
import type { SvcFetch } from './svc-http.ts';
import type { McpTool } from './tool.ts';

export { loadTools } from './server.ts';

export async function answerMcp(tools: McpTool[], http: SvcFetch, request: Request): Promise<Response> {
  const server = mcpServer(tools, http);
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  await server.connect(transport);
  return transport.handleRequest(request);
}
