// The route table: every own route, declared as data in its group's file (runtime/routes/), in the
// order the app registers them. The app, the 405/OPTIONS/CORS rules and /openapi.json all read it.
import { H3, type HTTPError } from 'h3';
import type { AppContext } from './context.ts';
import { errorResponse } from './errors.ts';
import { servedBy, type Route } from './declared-route.ts';
import { registerRoutes } from './register-routes.ts';
import { httpRules } from './http-rules.ts';
import { healthRoutes } from './routes/health.ts';
import { metaRoutes } from './routes/meta.ts';
import { catalogRoutes } from './routes/catalog.ts';
import { findRoutes } from './routes/find.ts';
import { authRoutes } from './routes/auth.ts';
import { adminRoutes } from './routes/admin.ts';
import { teamRoutes } from './routes/teams.ts';
import { feedbackRoutes } from './routes/feedback.ts';
import { reviewRoutes } from './routes/reviews.ts';
import { hubRoutes } from './routes/hub.ts';
import { mcpRoutes } from './routes/mcp.ts';
import { hubMcpRoutes } from './routes/hub-mcp.ts';
import { batchRoutes } from './routes/batch.ts';
import { hubBatchRoutes } from './routes/hub-batch.ts';
import { proxyRoutes } from './routes/proxy.ts';
import { openapiRoutes } from './routes/openapi.ts';
import { staticRoutes } from './routes/static.ts';

export const ROUTES: readonly Route[] = [
  ...healthRoutes, //   GET /healthz, /readyz
  ...metaRoutes, //     GET /meta
  ...catalogRoutes, //  GET /catalog/platforms[/{slug}], /catalog/search, /catalog/drift, /catalog/endpoints/{endpoint_id}
  ...findRoutes, //     GET /catalog/find (NDJSON: candidates, then the judge's verdict)
  ...authRoutes, //     POST, DELETE /auth/session
  ...adminRoutes, //    GET, POST /admin/teams; GET, POST …/{team}/tokens, DELETE …/tokens/{token_id}; POST …/credit, …/disable, …/enable (with SVC_ADMIN_TOKEN; 404 without)
  ...teamRoutes, //     GET /teams/me, /teams/me/ledger; POST, DELETE /teams/me/keys/{provider}; GET, POST /teams/me/tokens, DELETE …/{token_id}
  ...feedbackRoutes, // POST /feedback, GET /feedback/{feedback_id}
  ...reviewRoutes, //   POST /reviews
  ...hubRoutes, //      POST, GET /hub/tools; PUT, GET, DELETE /hub/tools/{tool_id}; POST …/check, …/run; GET …/runs
  ...hubBatchRoutes, // POST /hub/tools/{tool_id}/batch, …/batch/{batch_id}/stop (a capability's batch, each row a run)
  ...hubMcpRoutes, //   GET /hub/mcp-tools; PUT, DELETE /hub/mcp-tools/{tool_id} (a team's MCP set)
  ...mcpRoutes, //      POST /mcp (MCP over Streamable HTTP, stateless)
  ...batchRoutes, //    POST {proxy}/{capability}/batch (NDJSON in, NDJSON rows and a summary out)
  ...proxyRoutes, //    POST {proxy}/{capability} routed; {proxy}/{provider}/{path} pass-through
  ...openapiRoutes, //  GET /openapi.json
  ...staticRoutes, //   GET /catalog/{file}, /{file}: the files of dist/ (static catalog, dashboard)
];

export function createApp(ctx: AppContext, routes: readonly Route[] = ROUTES): H3 {
  const served = servedBy(routes, ctx.config);
  const rules = httpRules(served, ctx.config.proxyPrefix);
  const app = new H3({ onError: (error: HTTPError) => errorResponse(error), onResponse: rules.openOrigin });
  app.use(rules.methodRules); // 405 with Allow, OPTIONS (CORS preflight on the open reads), for every route
  registerRoutes(app, ctx, served, routes);
  return app;
}
