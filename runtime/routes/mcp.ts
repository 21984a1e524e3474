// /mcp: the MCP server over Streamable HTTP, stateless (a server per request). The credential is
// x-svc-token or Authorization: Bearer; every tool call goes through the app with it.
import { defineHandler, getRequestIP, type H3 } from 'h3';
import type { AppContext } from '../context.ts';
import { teamFor } from '../auth.ts';
import { fail } from '../errors.ts';
import { svcFetch } from '../mcp/svc-http.ts';
import type { McpTool } from '../mcp/tool.ts';

// the MCP SDK loads on the first /mcp request, not at start (see mcp/http-answer.ts)
const mcp = () => import('../mcp/http-answer.ts');
const bearer = (h: string | null) => (h && /^bearer\s+/i.test(h) ? h.replace(/^bearer\s+/i, '').trim() : null);

export function mcpRoutes(app: H3, ctx: AppContext): void {
  let tools: Promise<McpTool[]> | null = null; // the catalog is loaded once: so are its tools
  const handler = defineHandler(async (event) => {
    const token = event.req.headers.get('x-svc-token') ?? bearer(event.req.headers.get('authorization'));
    await teamFor(ctx.state, { token, session: null, org: event.req.headers.get('x-svc-org') });
    // the caller's address goes along, so per-client limits (the job finder's) count the agent, not svc
    const ip = getRequestIP(event, { xForwardedFor: ctx.config.trustProxy });
    const http = svcFetch('http://svc.internal', token!, (r) => app.fetch(Object.assign(r, { ip })));
    // a failed load is tried again by the next request rather than kept
    tools ??= mcp().then((m) => m.loadTools(http)).catch((e: unknown) => { tools = null; throw e; });
    if (Number(event.req.headers.get('content-length')) > ctx.config.maxBodyBytes) fail(413, `Request body too large: the limit is ${ctx.config.maxBodyBytes} bytes.`);
    return (await mcp()).answerMcp(await tools, http, event.req as unknown as Request);
  });
  // the methods of Streamable HTTP (GET and DELETE answer 405 in stateless mode, from the SDK)
  app.post('/mcp', handler);
  app.get('/mcp', handler);
  app.delete('/mcp', handler);
}
