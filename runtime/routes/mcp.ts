// /mcp: the MCP server over Streamable HTTP, stateless (a server per request). The credential is
// x-svc-token or Authorization: Bearer; every tool call goes through the app with it.
import { getRequestIP } from 'h3';
import { route, type RouteRequest } from '../http/declared-route.ts';
import { perContext } from '../context/context.ts';
import { teamFor, type TokenPlace } from '../http/auth.ts';
import { fail } from '../util/fail.ts';
import { svcFetch } from '../mcp/svc-http.ts';
import type { McpTool } from '../mcp/tool.ts';

// the MCP SDK loads on the first /mcp request, not at start (see mcp/http-answer.ts)
const mcp = () => import('../mcp/http-answer.ts');
/** /mcp takes the token either way, so its 401 names both */
const MCP_TOKEN: TokenPlace = {
  send: 'in the x-svc-token header or as Authorization: Bearer <token>',
  invalid: 'The API token (x-svc-token or Authorization: Bearer) is not valid.',
};
const bearer = (h: string | null) => (h && /^bearer\s+/i.test(h) ? h.replace(/^bearer\s+/i, '').trim() : null);
/** the catalog is loaded once per app: so are its tools (null until asked, or after a failed load) */
const toolsOf = perContext(() => ({ tools: null as Promise<McpTool[]> | null }));

async function answer({ event, ctx, app }: RouteRequest<object>): Promise<Response> {
  const token = event.req.headers.get('x-svc-token') ?? bearer(event.req.headers.get('authorization'));
  await teamFor(ctx.state, { token, session: null, org: event.req.headers.get('x-svc-org') }, MCP_TOKEN);
  // the caller's address goes along, so per-client limits (the job finder's) count the agent, not svc
  const ip = getRequestIP(event, { xForwardedFor: ctx.config.trustProxy });
  const http = svcFetch('http://svc.internal', token!, (r) => app.fetch(Object.assign(r, { ip })));
  // a failed load is tried again by the next request rather than kept
  const cache = toolsOf(ctx);
  const tools = (cache.tools ??= mcp()
    .then((m) => m.loadTools(http))
    .catch((e: unknown) => {
      cache.tools = null;
      throw e;
    }));
  if (Number(event.req.headers.get('content-length')) > ctx.config.maxBodyBytes)
    fail(413, `Request body too large: the limit is ${ctx.config.maxBodyBytes} bytes.`);
  return (await mcp()).answerMcp(await tools, http, event.req as unknown as Request);
}

// POST only: stateless, there is no server stream to open (GET) or session to close (DELETE), and the
// SDK's transport would hold a GET open with nothing ever sent and answer DELETE 200, so both are
// svc's 405 with Allow: POST, which the MCP spec lets a server answer and clients expect.
export const mcpRoutes = [
  route({
    method: 'POST',
    path: '/mcp',
    tags: ['mcp'],
    auth: 'agent',
    summary: "MCP over Streamable HTTP, stateless: catalog tools, one tool per routed capability, the hub tools of your team's MCP set (docs/agents.md)",
    responses: { 200: 'A JSON-RPC answer', 401: 'No or bad credential' },
    handle: answer,
  }),
];
