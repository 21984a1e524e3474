// The route table: every own route, declared as data in its group's file (runtime/routes/), in the
// order the app registers them. The app, the 405/OPTIONS/CORS rules and /openapi.json all read it.
import { H3, type HTTPError } from 'h3';
import type { AppContext } from '../context/context.ts';
import { errorResponse } from '../http/errors.ts';
import { servedBy, type Route } from '../http/declared-route.ts';
import { registerRoutes } from '../http/register-routes.ts';
import { httpRules } from '../http/http-rules.ts';
import { healthRoutes } from './health.ts';
import { metaRoutes } from './meta.ts';
import { catalogRoutes } from './catalog.ts';
import { findRoutes } from './find.ts';
import { authRoutes } from './auth.ts';
import { adminRoutes } from './admin.ts';
import { teamRoutes } from './teams.ts';
import { feedbackRoutes } from './feedback.ts';
import { reviewRoutes } from './reviews.ts';
import { hubRoutes } from './hub.ts';
import { mcpRoutes } from './mcp.ts';
import { hubMcpRoutes } from './hub-mcp.ts';
import { batchRoutes } from './batch.ts';
import { hubBatchRoutes } from './hub-batch.ts';
import { proxyRoutes } from './proxy.ts';
import { openapiRoutes } from './openapi.ts';
import { staticRoutes } from './static.ts';

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
  // silent: a refusal thrown below HTTP (a StatusError) reaches h3 as an error it did not make, which
  // h3 would log as unhandled; errorResponse logs what is a bug (a 500's cause) and nothing else
  const app = new H3({ silent: true, onError: (error: HTTPError) => errorResponse(error), onResponse: rules.openOrigin });
  app.use(rules.methodRules); // 405 with Allow, OPTIONS (CORS preflight on the open reads), for every route
  registerRoutes(app, ctx, served, routes);
  return app;
}
