// Rules every own route follows without saying so itself, so routes added later follow them too:
// a known path asked with a method it does not take is a 405 naming the ones it does (`Allow`),
// OPTIONS answers those methods, and the open reads (/meta, /catalog/*, /openapi.json) answer
// any origin, since the static catalog is read by browsers on other sites.
import type { H3, H3Event, H3Route, Middleware } from 'h3';
import { fail } from './errors.ts';

/** The header that lets any origin read an open endpoint (the Node fast path sends it too). */
export const OPEN_ORIGIN = { 'access-control-allow-origin': '*' } as const;
const OPEN_METHODS = 'GET, HEAD';
const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
/** the dist/ files' catch-all takes every GET, so it says nothing about which methods a path takes */
const CATCH_ALL = '/**';

export function isOpenPath(path: string): boolean {
  return path === '/meta' || path === '/openapi.json' || path.startsWith('/catalog/');
}

/** The methods own routes take at `path` (HEAD with GET); empty for a path no own route names. */
function allowed(app: H3, path: string): string[] {
  const methods = METHODS.filter((m) => {
    // the app's own route lookup reads only these two fields of an event
    const hit = app['~findRoute']({ req: { method: m }, url: { pathname: path } } as H3Event)?.data;
    return hit !== undefined && hit.method === m && hit.route !== CATCH_ALL; // an any-method route decides for itself
  });
  return methods.flatMap((m) => (m === 'GET' ? ['GET', 'HEAD'] : [m]));
}

export function methodRules(app: H3): Middleware {
  return (event, next) => {
    const method = event.req.method;
    const matched: H3Route | undefined = event.context.matchedRoute;
    if (method !== 'OPTIONS' && matched && matched.route !== CATCH_ALL) return next();
    const path = event.url.pathname;
    const allow = allowed(app, path);
    if (allow.length === 0 || allow.includes(method)) return next();
    if (method !== 'OPTIONS') fail(405, `${path} does not take ${method.slice(0, 16)}; it takes ${allow.join(', ')}.`, { allow: allow.join(', ') });
    const headers: Record<string, string> = { allow: [...allow, 'OPTIONS'].join(', ') };
    if (isOpenPath(path)) {
      // a CORS preflight: GET and HEAD from any origin, with whatever headers the page asks to send
      Object.assign(headers, OPEN_ORIGIN, {
        'access-control-allow-methods': OPEN_METHODS,
        'access-control-allow-headers': event.req.headers.get('access-control-request-headers') ?? '',
        'access-control-max-age': '86400',
      });
    }
    return new Response(null, { status: 204, headers });
  };
}

/** h3's onResponse: an open endpoint's answer (errors too) carries the any-origin header. */
export function openOrigin(response: Response, event: H3Event): void {
  if (isOpenPath(event.url.pathname)) for (const [k, v] of Object.entries(OPEN_ORIGIN)) response.headers.set(k, v);
}
