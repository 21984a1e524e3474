// One own route as data: what the app registers (register-routes.ts), what the 405/OPTIONS/CORS rules
// read (http-rules.ts), what /openapi.json publishes (openapi.ts) and what the route-table tests walk.
// A route group (runtime/routes/<group>.ts) exports a list of these; app.ts lists the groups.
import type { H3, H3Event } from 'h3';
import type { AppContext } from '../context/context.ts';
import { ConfigError, type Config } from '../config/config.ts';
import type { ObjectSchema } from './request-schemas.ts';
import type { Team } from '../state/index.ts';

/** ANY: the handler takes every method and decides itself (the pass-through calls a provider's own method) */
export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE' | 'ANY';

/**
 * Who may call, checked before validation and the handler:
 * - none: anyone;
 * - team: an API token (x-svc-token) or a dashboard session, checked against x-svc-org (req.team);
 * - admin: the x-svc-admin header, on a server started with SVC_ADMIN_TOKEN;
 * - agent: an API token as x-svc-token or Authorization: Bearer, checked by the handler (MCP).
 */
export type Auth = 'none' | 'team' | 'admin' | 'agent';

/** A documented answer: a sentence (the body's shape follows from the status), or the shape itself. */
export type Answer = string | { description: string; type?: string; schema?: object };

export interface RequestShape {
  /** path parameters, validated (strings coerced to the declared types); a `{name}` without one is any text */
  path?: ObjectSchema;
  /** query parameters, validated (strings coerced, defaults filled) */
  query?: ObjectSchema;
  /** a JSON body, read within SVC_MAX_BODY_BYTES and validated (no coercion) */
  body?: ObjectSchema;
  /** what an empty body stands for before validation (default: nothing, which the schema refuses) */
  emptyBody?: object;
  /** a body the handler reads itself, published with this content type */
  stream?: 'application/x-ndjson';
  /** request headers the route reads, with what each means */
  headers?: Record<string, string>;
  /** what each path and query parameter means, for /openapi.json */
  about?: Record<string, string>;
}

/** What the handler gets: the event, the app's context and the inputs, already checked. */
export interface RouteRequest<I extends Inputs> {
  event: H3Event;
  ctx: AppContext;
  /** the app serving, for a route that calls other routes (MCP's tools) */
  app: H3;
  /** every declared route, as the app serves them (for /openapi.json) */
  routes: readonly Route[];
  team: I['team'];
  path: I['path'];
  query: I['query'];
  body: I['body'];
  /** a paid route's call id, made before its checks so that every answer names it (else undefined) */
  callId: I['callId'];
}

/** The checked inputs a handler uses; a route with `team` must say `auth: 'team'`. */
export interface Inputs {
  team?: Team;
  path?: object;
  query?: object;
  body?: unknown;
  /** a `paid` route's call id */
  callId?: string;
}

export interface Route<I extends Inputs = Inputs> {
  method: Method;
  /**
   * The path as /openapi.json writes it: `{name}` is one segment, `{name*}` the rest of the path
   * (slashes included), and a leading `{proxy}` stands for SVC_PROXY_PREFIX.
   */
  path: string;
  summary: string;
  tags: readonly string[];
  auth: I extends { team: Team } ? 'team' : Auth;
  /** the handler checks the credential itself (the routed call: the Node fast path shares its code) */
  checksCredential?: true;
  /**
   * A paid door (a hub run): a call id is made before anything is checked, and every answer names
   * it (`call_id` and X-Svc-Call-Id), a refusal of the credential, the path or the body too.
   */
  paid?: true;
  request?: RequestShape;
  /** the answers, by status ('default': whatever the provider answers) */
  responses: Record<string, Answer>;
  /** readable from any origin, preflight included: the open reads browsers on other sites make */
  open?: true;
  /**
   * How /openapi.json lists it: `omit` for documents rather than API (dist/ files) and for stand-ins,
   * `each-capability` for the routed call, published once per capability of the catalog.
   */
  openapi?: 'omit' | 'each-capability';
  operationId?: string;
  /** methods /openapi.json lists for an ANY route */
  documentedMethods?: ReadonlyArray<Exclude<Method, 'ANY'>>;
  /** served only on a server so configured (default: always) */
  when?: (config: Config) => boolean;
  handle(req: RouteRequest<I>): unknown;
}

/** A route, typed by the inputs its handler reads (route<{ team: Team; body: X }>({...})). */
export function route<I extends Inputs = Record<never, never>>(declared: Route<I>): Route {
  return declared as unknown as Route;
}

/** `{proxy}` replaced by the configured prefix */
export function pathUnder(r: Pick<Route, 'path'>, proxyPrefix: string): string {
  return r.path.replace(/^\{proxy\}/, proxyPrefix);
}

/**
 * The declared path in h3's syntax: `{name}` → `:name`, `{name*}` → `**` (unnamed: h3's `**:name`
 * needs at least one segment, and a rest-of-path route also takes its own root, `/` for dist/ files).
 */
export function h3Path(r: Pick<Route, 'path'>, proxyPrefix: string): string {
  return pathUnder(r, proxyPrefix)
    .replace(/\{\w+\*\}/g, '**')
    .replace(/\{(\w+)\}/g, ':$1');
}

/** the declared path as /openapi.json writes it (`{name*}` → `{name}`) */
export function documentedPath(r: Pick<Route, 'path'>, proxyPrefix: string): string {
  return pathUnder(r, proxyPrefix).replace(/\{(\w+)\*\}/g, '{$1}');
}

/** the names of a declared path's parameters, in order */
export function pathParams(r: Pick<Route, 'path'>): string[] {
  return [...r.path.replace(/^\{proxy\}/, '').matchAll(/\{(\w+)\*?\}/g)].map((m) => m[1]);
}

/** a rest-of-path route (`{name*}`): it takes whatever is under it, so it says nothing about methods */
export const isCatchAll = (r: Pick<Route, 'path'>): boolean => /\*\}$/.test(r.path);

/** the routes a server with this configuration serves */
export const servedBy = (routes: readonly Route[], config: Config): Route[] => routes.filter((r) => r.when?.(config) ?? true);

/**
 * A proxy prefix that starts with one of svc's own first path segments (`/catalog`, `/hub`, …) would
 * split that path between two sets of routes, so the start refuses it, naming them.
 */
export function refuseClashingPrefix(routes: readonly Route[], proxyPrefix: string): void {
  const own = new Set(
    routes
      .filter((r) => !r.path.startsWith('{proxy}'))
      .map((r) => r.path.split('/')[1])
      .filter((s) => s && !s.startsWith('{')),
  );
  const first = proxyPrefix.split('/')[1];
  if (own.has(first))
    throw new ConfigError(
      `SVC_PROXY_PREFIX=${proxyPrefix}: /${first} is one of svc's own paths (${[...own]
        .sort()
        .map((s) => `/${s}`)
        .join(', ')}); choose another, such as /proxy`,
    );
}
