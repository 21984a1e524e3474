// One HTTP exchange with a provider (undici: keep-alive pool, no redirects followed, so a provider
// cannot bounce a call, or our key, to another host).
import { request } from 'undici';
import type { OutgoingRequest } from './build-request.ts';

export interface ChildAnswer {
  status: number;
  /** parsed JSON, or undefined when the body is not JSON */
  body: unknown;
  text: string;
  ms: number;
  /** set when no HTTP answer came back: timeout, reset, refused */
  failure?: 'timeout' | 'network';
}

export async function send(req: OutgoingRequest, timeoutMs: number): Promise<ChildAnswer> {
  const t0 = performance.now();
  try {
    // undici's own timers (coarse, shared) rather than one AbortSignal timer per request.
    const limit = Math.max(1, timeoutMs);
    const res = await request(req.url, { method: req.method as 'GET', headers: req.headers, body: req.body, headersTimeout: limit, bodyTimeout: limit });
    const text = await res.body.text();
    let body: unknown;
    try { body = text ? JSON.parse(text) : undefined; } catch { body = undefined; }
    return { status: res.statusCode, body, text, ms: Math.round(performance.now() - t0) };
  } catch (e) {
    const code = (e as { code?: string }).code ?? '';
    const timedOut = code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT' || (e as Error).name === 'TimeoutError';
    return { status: 0, body: undefined, text: '', ms: Math.round(performance.now() - t0), failure: timedOut ? 'timeout' : 'network' };
  }
}
