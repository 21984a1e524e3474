// The route table. Each group is its own small file; this file only says which paths exist.
import { H3, type HTTPError } from 'h3';
import type { AppContext } from './context.ts';
import { errorResponse } from './errors.ts';
import { metaRoutes } from './routes/meta.ts';
import { catalogRoutes } from './routes/catalog.ts';
import { findRoutes } from './routes/find.ts';
import { openapiRoutes } from './routes/openapi.ts';
import { staticRoutes } from './routes/static.ts';
import { authRoutes } from './routes/auth.ts';
import { adminRoutes } from './routes/admin.ts';
import { teamRoutes } from './routes/teams.ts';
import { proxyRoutes } from './routes/proxy.ts';
import { feedbackRoutes } from './routes/feedback.ts';
import { reviewRoutes } from './routes/reviews.ts';
import { healthRoutes } from './routes/health.ts';
import { methodRules, openOrigin } from './http-rules.ts';
import { hubRoutes } from './routes/hub.ts';
import { batchRoutes } from './routes/batch.ts';
import { mcpRoutes } from './routes/mcp.ts';

export function createApp(ctx: AppContext): H3 {
  const app = new H3({ onError: (error: HTTPError) => errorResponse(error), onResponse: openOrigin });
  app.use(methodRules(app)); //   405 with Allow, OPTIONS (CORS preflight on the open reads), for every route below
  healthRoutes(app, ctx); //      GET /healthz, /readyz
  metaRoutes(app, ctx); //        GET /meta
  catalogRoutes(app, ctx); //     GET /catalog/platforms[/{slug}], /catalog/search, /catalog/endpoints/{id}
  findRoutes(app, ctx); //        GET /catalog/find (NDJSON: candidates, then the judge's verdict)
  authRoutes(app, ctx); //        POST, DELETE /auth/session
  adminRoutes(app, ctx); //       GET, POST /admin/teams, /admin/teams/{team}/tokens, /admin/teams/{team}/credit (SVC_ADMIN_TOKEN only)
  teamRoutes(app, ctx); //        GET /teams/me, /teams/me/ledger; POST, DELETE /teams/me/keys/{provider}
  feedbackRoutes(app, ctx); //    POST /feedback, GET /feedback/{id}
  reviewRoutes(app, ctx); //      POST /reviews
  hubRoutes(app, ctx); //         POST /hub/tools; PUT, GET, DELETE /hub/tools/{id}; POST …/{id}[@N]/check, …/run; GET …/{id}/runs
  mcpRoutes(app, ctx); //         GET, POST, DELETE /mcp (MCP over Streamable HTTP)
  batchRoutes(app, ctx); //       POST {proxy}/{capability}/batch (NDJSON in, NDJSON rows and a summary out)
  proxyRoutes(app, ctx); //       POST {proxy}/{capability} routed; {proxy}/{provider}/{path} pass-through
  openapiRoutes(app, ctx); //     GET /openapi.json
  staticRoutes(app, ctx); //      GET /* files of dist/ (dashboard, static catalog)
  return app;
}
