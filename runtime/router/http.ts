// One HTTP exchange with a provider (undici: keep-alive pool, no redirects followed, so a provider
// cannot bounce a call, or our key, to another host).
import { Agent, type Dispatcher } from 'undici';
import type { OutgoingRequest } from './build-request.ts';

export interface ChildAnswer {
  status: number;
  /** parsed JSON, or undefined when the body is not JSON */
  body: unknown;
  text: string;
  ms: number;
  /** set when no usable HTTP answer came back: timeout, reset or refused, or a body past the size limit */
  failure?: 'timeout' | 'network' | 'too_large';
}

type Controller = Parameters<NonNullable<Dispatcher.DispatchHandler['onRequestStart']>>[0];

/** Our own pool: the global dispatcher may be another undici's (Node's fetch installs its own). */
const agent = new Agent();

const OVERDUE = 'SVC_ANSWER_OVERDUE';
const TOO_LARGE = 'SVC_ANSWER_TOO_LARGE';

/** the default for SVC_MAX_ANSWER_BYTES: far above any single record, far below trouble */
export const MAX_ANSWER_BYTES = 8 * 1024 * 1024;

const overdue = (ms: number) => Object.assign(new Error(`no whole answer within ${ms} ms`), { code: OVERDUE });

/**
 * undici's dispatch with a handler that only gathers the body: the same pool, parser and timers as
 * `request()`, without a stream object per answer (measured: about half the client CPU per call).
 */
function exchange(req: OutgoingRequest, timeoutMs: number, maxBytes: number): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let status = 0;
    let size = 0;
    let controller: Controller | null = null;
    // One timer for the whole exchange, to the millisecond, instead of undici's header and body
    // timeouts: each of those restarts, and they tick coarsely (about half a second past a second).
    let late = false;
    const timer = setTimeout(() => { late = true; controller?.abort(overdue(timeoutMs)); reject(overdue(timeoutMs)); }, timeoutMs);
    const handler: Dispatcher.DispatchHandler = {
      onRequestStart(c) {
        controller = c;
        if (late) c.abort(overdue(timeoutMs)); // the time ran out while the request waited for a connection
      },
      onResponseStart(_controller, statusCode) { status = statusCode; },
      onResponseData(controller, chunk) {
        size += chunk.length;
        // Past the limit the connection is dropped rather than read on: a provider cannot fill our memory.
        if (size > maxBytes) controller.abort(Object.assign(new Error(`answer over ${maxBytes} bytes`), { code: TOO_LARGE }));
        else chunks.push(chunk);
      },
      onResponseEnd() {
        clearTimeout(timer);
        resolve({ status, text: chunks.length === 1 ? chunks[0].toString('utf8') : Buffer.concat(chunks).toString('utf8') });
      },
      onResponseError(_controller, error) { clearTimeout(timer); reject(error); },
    };
    agent.dispatch({
      origin: req.origin, path: req.path, method: req.method as Dispatcher.HttpMethod,
      headers: req.headers, body: req.body,
    }, handler);
  });
}

export async function send(req: OutgoingRequest, timeoutMs: number, maxBytes = MAX_ANSWER_BYTES): Promise<ChildAnswer> {
  const t0 = performance.now();
  try {
    const { status, text } = await exchange(req, Math.max(1, timeoutMs), maxBytes);
    let body: unknown;
    try { body = text ? JSON.parse(text) : undefined; } catch { body = undefined; }
    return { status, body, text, ms: Math.round(performance.now() - t0) };
  } catch (e) {
    const code = (e as { code?: string }).code ?? '';
    const failure = code === TOO_LARGE ? 'too_large' : code === OVERDUE ? 'timeout' : 'network';
    return { status: 0, body: undefined, text: '', ms: Math.round(performance.now() - t0), failure };
  }
}
