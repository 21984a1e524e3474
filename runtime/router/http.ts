// One HTTP exchange with a provider (undici: keep-alive pool, no redirects followed, so a provider
// cannot bounce a call, or our key, to another host).
import type { Agent, Dispatcher } from 'undici';
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

/**
 * Our own pool: the global dispatcher may be another undici's (Node's fetch installs its own). Made
 * on the first call: loading undici costs about 17 MB and 55 ms, which a start need not pay.
 */
let agent: Agent | null = null;
let loading: Promise<Agent> | undefined;
// undici's own header and body timeouts are off: each exchange has its one timer (Exchange), and
// undici's would be set and cleared twice more per request.
const pool = (): Promise<Agent> =>
  (loading ??= import('undici').then((undici) => (agent = new undici.Agent({ headersTimeout: 0, bodyTimeout: 0 }))).catch((e: unknown) => { loading = undefined; throw e; }));

const OVERDUE = 'SVC_ANSWER_OVERDUE';
const TOO_LARGE = 'SVC_ANSWER_TOO_LARGE';

/** the default for SVC_MAX_ANSWER_BYTES: far above any single record, far below trouble */
export const MAX_ANSWER_BYTES = 8 * 1024 * 1024;

const overdue = (ms: number) => Object.assign(new Error(`no whole answer within ${ms} ms`), { code: OVERDUE });

/**
 * One exchange through undici's dispatch, with a handler that only gathers the body: the same pool,
 * parser and timers as `request()`, without a stream object per answer (measured: about half the
 * client CPU per call). The handler is the exchange itself, one object per call rather than a
 * closure per event, and settles the one promise of the call with its ChildAnswer.
 */
class Exchange implements Dispatcher.DispatchHandler {
  private chunks: Buffer[] = [];
  private status = 0;
  private size = 0;
  private controller: Controller | null = null;
  private late = false;
  private settled = false;
  private t0 = performance.now();
  // One timer for the whole exchange, to the millisecond, instead of undici's header and body
  // timeouts: each of those restarts, and they tick coarsely (about half a second past a second).
  private timer: NodeJS.Timeout;

  constructor(private timeoutMs: number, private maxBytes: number, private done: (answer: ChildAnswer) => void) {
    this.timer = setTimeout(overdueExchange, timeoutMs, this);
  }

  overdue(): void {
    this.late = true;
    this.controller?.abort(overdue(this.timeoutMs));
    this.fail(OVERDUE);
  }

  onRequestStart(c: Controller): void {
    this.controller = c;
    if (this.late) c.abort(overdue(this.timeoutMs)); // the time ran out while the request waited for a connection
  }

  onResponseStart(_c: Controller, statusCode: number): void {
    this.status = statusCode;
  }

  onResponseData(c: Controller, chunk: Buffer): void {
    this.size += chunk.length;
    // Past the limit the connection is dropped rather than read on: a provider cannot fill our memory.
    if (this.size > this.maxBytes) c.abort(Object.assign(new Error(`answer over ${this.maxBytes} bytes`), { code: TOO_LARGE }));
    else this.chunks.push(chunk);
  }

  onResponseEnd(): void {
    clearTimeout(this.timer);
    if (this.settled) return;
    this.settled = true;
    const { chunks } = this;
    const text = chunks.length === 1 ? chunks[0].toString('utf8') : Buffer.concat(chunks).toString('utf8');
    let body: unknown;
    try { body = text ? JSON.parse(text) : undefined; } catch { body = undefined; }
    this.done({ status: this.status, body, text, ms: Math.round(performance.now() - this.t0) });
  }

  onResponseError(_c: Controller | null, error: Error): void {
    clearTimeout(this.timer);
    this.fail((error as { code?: string }).code ?? '');
  }

  private fail(code: string): void {
    if (this.settled) return;
    this.settled = true;
    const failure = code === TOO_LARGE ? 'too_large' : code === OVERDUE ? 'timeout' : 'network';
    this.done({ status: 0, body: undefined, text: '', ms: Math.round(performance.now() - this.t0), failure });
  }
}

function overdueExchange(exchange: Exchange): void {
  exchange.overdue();
}

/** One request to a provider; never rejects: a failed exchange is an answer with `failure` set. */
export function send(req: OutgoingRequest, timeoutMs: number, maxBytes = MAX_ANSWER_BYTES): Promise<ChildAnswer> {
  // the first call loads undici before its clock starts: the load is not the provider's time
  if (!agent) return pool().then(() => send(req, timeoutMs, maxBytes));
  const dispatcher = agent;
  return new Promise((resolve) => {
    const exchange = new Exchange(Math.max(1, timeoutMs), maxBytes, resolve);
    try {
      dispatcher.dispatch({ origin: req.origin, path: req.path, method: req.method as Dispatcher.HttpMethod, headers: req.headers, body: req.body }, exchange);
    } catch (e) {
      exchange.onResponseError(null, e as Error); // a request undici refuses to send is a network failure
    }
  });
}
