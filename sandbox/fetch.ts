// The sandbox as a fetch handler (Request -> Response): `/_sandbox/*` control routes and `/<service>/…`.
import type { Sandbox } from './sandbox.ts';
import type { SandboxAnswer, SandboxRequest } from './types.ts';

const asJson = (status: number, body: unknown, headers?: Record<string, string>): Response =>
  new Response(JSON.stringify(body), { status, headers: { ...headers, 'content-type': 'application/json' } });

/** `/_sandbox/billing`, `/_sandbox/tokens`, `/_sandbox/reset`; null for anything else. */
export function controlAnswer(sb: Sandbox, method: string, pathname: string): { status: number; body: unknown } | null {
  if (pathname === '/_sandbox/billing' && method === 'GET') return { status: 200, body: sb.billing() };
  if (pathname === '/_sandbox/tokens' && method === 'GET') return { status: 200, body: sb.tokens() };
  if (pathname === '/_sandbox/reset' && method === 'POST') {
    sb.reset();
    return { status: 200, body: { ok: true } };
  }
  if (pathname === '/_sandbox/health' && method === 'GET') return { status: 200, body: { ok: true, services: sb.services().length } };
  if (pathname.startsWith('/_sandbox/')) return { status: 404, body: { error: 'not found' } };
  return null;
}

/** Split `/<service>/rest` into the service and the provider path. */
export function splitService(pathname: string): { service: string; path: string } {
  const m = /^\/([^/]+)(\/.*)?$/.exec(pathname);
  return { service: m?.[1] ?? '', path: m?.[2] ?? '/' };
}

function sleep(ms: number, signal: AbortSignal): Promise<boolean> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve(false);
    const t = setTimeout(() => resolve(true), ms);
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(t);
        resolve(false);
      },
      { once: true },
    );
  });
}

async function toResponse(sb: Sandbox, a: SandboxAnswer, signal: AbortSignal): Promise<Response> {
  if (a.kind === 'stall') {
    await sleep(a.ms, signal);
    return Response.error();
  }
  if (a.kind === 'reset') return new Response(new ReadableStream({ start: (c) => c.error(new Error('connection reset')) }));
  if (a.delayMs && !(await sleep(a.delayMs, signal))) return Response.error();
  if (a.kind === 'text') return new Response(a.text, { status: a.status, headers: { 'content-type': a.contentType } });
  if (a.charge) sb.record(a.charge);
  return asJson(a.status, a.body, a.headers);
}

export function fetchHandler(sb: Sandbox): (request: Request) => Promise<Response> {
  return async (request) => {
    const url = new URL(request.url);
    const control = controlAnswer(sb, request.method, url.pathname);
    if (control) return asJson(control.status, control.body);
    const { service, path } = splitService(url.pathname);
    const req: SandboxRequest = {
      method: request.method,
      path,
      query: url.searchParams,
      headers: Object.fromEntries([...request.headers].map(([k, v]) => [k.toLowerCase(), v])),
      bodyText: request.method === 'GET' || request.method === 'HEAD' ? '' : await request.text(),
    };
    return toResponse(sb, await sb.handle(service, req), request.signal);
  };
}
