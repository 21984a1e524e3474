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
    const res = await request(req.url, {
      method: req.method as 'GET',
      headers: req.headers,
      body: req.body,
      signal: AbortSignal.timeout(Math.max(1, timeoutMs)),
    });
    const text = await res.body.text();
    let body: unknown;
    try { body = text ? JSON.parse(text) : undefined; } catch { body = undefined; }
    return { status: res.statusCode, body, text, ms: Math.round(performance.now() - t0) };
  } catch (e) {
    const name = (e as Error).name;
    return { status: 0, body: undefined, text: '', ms: Math.round(performance.now() - t0), failure: name === 'TimeoutError' || name === 'AbortError' ? 'timeout' : 'network' };
  }
}
