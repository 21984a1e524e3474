// Declared routes onto the h3 app. Each route's checks run here, in one order for every route: the
// credential, then path, query and body against the declared schemas; the handler gets them checked.
import { getQuery, getRouterParams, HTTPResponse, type H3, type H3Event } from 'h3';
import type { AppContext } from '../context/context.ts';
import { h3Path, type Route, type RouteRequest, type Inputs } from './declared-route.ts';
import { errorAnswer } from './errors.ts';
import { fail } from '../util/fail.ts';
import { newCallId } from '../util/call-id.ts';
import { readJson } from './body.ts';
import { bodyCheck, queryCheck } from './request-checks.ts';
import { requireTeam } from './auth.ts';
import { safeEqual } from '../state/secrets.ts';
import type { Team } from '../state/index.ts';

/** what h3 keeps beside each route: its declaration (http-rules.ts reads it) */
export interface DeclaredMeta {
  declared: Route;
  [key: string]: unknown;
}

/** `served` onto the app; `declared` (every route, served here or not) is what handlers see as req.routes */
export function registerRoutes(app: H3, ctx: AppContext, served: readonly Route[], declared: readonly Route[]): void {
  for (const r of served) {
    const handler = checkedHandler(r, ctx, app, declared);
    const meta: DeclaredMeta = { declared: r };
    app.on(r.method === 'ANY' ? '' : r.method, h3Path(r, ctx.config.proxyPrefix), handler, { meta });
  }
}

function checkedHandler(r: Route, ctx: AppContext, app: H3, routes: readonly Route[]): (event: H3Event) => unknown {
  const { request = {} } = r;
  const checkPath = request.path && queryCheck<object>(request.path, 'path');
  const checkQuery = request.query && queryCheck<object>(request.query);
  const checkBody = request.body && bodyCheck<unknown>(request.body);
  // a fresh copy each time: validation may fill defaults into it, and the handler owns what it gets
  const emptyBody = () => (request.emptyBody ? { ...request.emptyBody } : undefined);
  const authorise = credentialCheck(r, ctx);
  return async (event) => {
    const callId = r.paid ? newCallId() : undefined;
    try {
      const team = await authorise?.(event);
      const params = getRouterParams(event);
      const req: RouteRequest<Inputs> = {
        event,
        ctx,
        app,
        routes,
        team: team ?? undefined,
        path: checkPath ? checkPath(params) : params,
        query: checkQuery ? checkQuery(getQuery(event)) : undefined,
        body: checkBody ? checkBody((await readJson(event, ctx.config.maxBodyBytes)) ?? emptyBody()) : undefined,
        callId,
      };
      return await r.handle(req);
    } catch (e) {
      if (callId === undefined) throw e;
      const answer = errorAnswer(e, callId);
      return new HTTPResponse(answer.text, { status: answer.status, headers: answer.headers });
    }
  };
}

/** the check a route's `auth` names, run before anything else (none where the handler checks itself) */
function credentialCheck(r: Route, ctx: AppContext): ((event: H3Event) => Promise<Team> | undefined) | undefined {
  if (r.checksCredential) return undefined;
  if (r.auth === 'team') return (event) => requireTeam(event, ctx.state);
  if (r.auth === 'admin') return adminCheck(ctx);
  return undefined; // none; an agent's token (MCP: x-svc-token or Bearer) is checked by its handler
}

/** x-svc-admin against SVC_ADMIN_TOKEN; admin routes are served only when it is set (their `when`) */
function adminCheck({ config }: AppContext): (event: H3Event) => undefined {
  const adminToken = config.adminToken ?? '';
  return (event) => {
    const given = event.req.headers.get('x-svc-admin');
    if (!adminToken || !given || !safeEqual(given, adminToken)) fail(401, 'Administration requires a valid x-svc-admin header.');
    return undefined;
  };
}
