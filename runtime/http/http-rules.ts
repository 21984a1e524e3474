// Rules every own route follows without saying so itself, read from the declared routes, so routes
// added later follow them too: a known path asked with a method it does not take is a 405 naming the
// ones it does (`Allow`), OPTIONS answers those methods, and the routes declared `open` (/meta,
// /catalog/*, /openapi.json) answer any origin, since the static catalog is read by browsers on
// other sites.
import type { H3Event, H3Route, Middleware } from 'h3';
import { fail } from '../util/fail.ts';
import { isCatchAll, pathUnder, type Route } from './declared-route.ts';
import type { DeclaredMeta } from './register-routes.ts';

/** The header that lets any origin read an open endpoint (the Node fast path sends it too). */
export const OPEN_ORIGIN = { 'access-control-allow-origin': '*' } as const;
const OPEN_METHODS = 'GET, HEAD';
const METHOD_ORDER = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'];

/** a declared path as a test over request paths */
function pattern(r: Route, proxyPrefix: string): RegExp {
  const escaped = pathUnder(r, proxyPrefix).replace(/[.+?^$()|[\]\\]/g, '\\$&');
  return new RegExp(`^${escaped.replace(/\/\{\w+\*\}$/, '/.*').replace(/\{\w+\}/g, '[^/]+')}$`);
}

export interface HttpRules {
  /** the methods the served routes take at `path` (HEAD with GET); empty where none names it */
  allowed(path: string): string[];
  /** whether any origin may read `path` */
  isOpen(path: string): boolean;
  /** the middleware: 405 with Allow, OPTIONS (a CORS preflight on open paths) */
  methodRules: Middleware;
  /** h3's onResponse: an open path's answer (errors too) carries the any-origin header */
  openOrigin(response: Response, event: H3Event): void;
}

export function httpRules(served: readonly Route[], proxyPrefix: string): HttpRules {
  // an ANY route or a rest-of-path one takes whatever comes, so it names no methods
  const specific = served.filter((r) => r.method !== 'ANY' && !isCatchAll(r)).map((r) => ({ test: pattern(r, proxyPrefix), method: r.method }));
  // one expression for all of them: it runs on every answer
  const openPaths = served.filter((r) => r.open).map((r) => pattern(r, proxyPrefix).source);
  const open = openPaths.length ? new RegExp(openPaths.join('|')) : null;
  const allowed = (path: string) => {
    const methods = new Set(specific.filter((s) => s.test.test(path)).flatMap((s) => (s.method === 'GET' ? ['GET', 'HEAD'] : [s.method])));
    return METHOD_ORDER.filter((m) => methods.has(m));
  };
  const isOpen = (path: string) => open?.test(path) ?? false;

  const methodRules: Middleware = (event, next) => {
    const method = event.req.method;
    const matched: H3Route | undefined = event.context.matchedRoute;
    const declared = (matched?.meta as DeclaredMeta | undefined)?.declared;
    // a matched route decides, unless it is the dist/ files' catch-all, which takes every GET
    if (method !== 'OPTIONS' && declared && (declared.method === 'ANY' || !isCatchAll(declared))) return next();
    const path = event.url.pathname;
    const allow = allowed(path);
    if (allow.length === 0 || allow.includes(method)) return next();
    if (method !== 'OPTIONS') fail(405, `${path} does not take ${method.slice(0, 16)}; it takes ${allow.join(', ')}.`, { allow: allow.join(', ') });
    const headers: Record<string, string> = { allow: [...allow, 'OPTIONS'].join(', ') };
    if (isOpen(path)) {
      // a CORS preflight: GET and HEAD from any origin, with whatever headers the page asks to send
      Object.assign(headers, OPEN_ORIGIN, { 'access-control-allow-methods': OPEN_METHODS, 'access-control-max-age': '86400' });
      // named only when the page asked for some: an empty header says nothing and reads as a mistake
      const asked = event.req.headers.get('access-control-request-headers');
      if (asked) headers['access-control-allow-headers'] = asked;
    }
    return new Response(null, { status: 204, headers });
  };

  const openOrigin = (response: Response, event: H3Event) => {
    if (isOpen(event.url.pathname)) for (const [k, v] of Object.entries(OPEN_ORIGIN)) response.headers.set(k, v);
  };
  return { allowed, isOpen, methodRules, openOrigin };
}
