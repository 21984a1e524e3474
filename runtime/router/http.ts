// One HTTP exchange with a provider, through undici: a Pool per origin and credential, the
// attempt's deadline over the whole exchange, a size limit on the answer, and no redirects followed
// (undici's dispatch follows none), so a provider cannot bounce a call, or our key, to another host.
// dispatch with a handler rather than request(): request() makes a stream and its promises per
// call, about a third more of the client's CPU (bench/README.md).
import type { IncomingHttpHeaders } from 'node:http';
import type { Dispatcher, Pool } from 'undici';
import type { OutgoingRequest } from './build-request.ts';
import { MAX_ANSWER_BYTES } from '../config/config.ts';
import { onceAsync } from '../util/once.ts';

// undici is loaded by the first provider call, not at start: it is about 10 MB of a server's
// resident memory that a start, the catalog and search never use (bench/README.md).
let undici: typeof import('undici') | undefined;
const loadUndici = onceAsync(async () => (undici ??= await import('undici')));

export interface ChildAnswer {
  status: number;
  /** parsed JSON, or undefined when the body is not JSON */
  body: unknown;
  text: string;
  ms: number;
  /** the answer's headers, lower-case names as undici gives them (where a provider may state its charge) */
  headers?: IncomingHttpHeaders;
  /** set when no usable HTTP answer came back: timeout, reset or refused, or a body past the size limit */
  failure?: 'timeout' | 'network' | 'too_large';
}

const USER_AGENT = 'svc';

/**
 * An answer's bytes gathered into one buffer that grows by doubling: memory follows the bytes, not
 * the number of pieces they came in (an answer of 8M one-byte chunks holds 8 MB, not 8M buffers).
 * The first piece is kept as it came: most answers are one piece, which then costs no copy and no
 * buffer of its own.
 */
const NOTHING = Buffer.alloc(0);

class Gathered {
  private buf: Buffer = NOTHING;
  private size = 0;

  constructor(private maxBytes: number) {}

  /** false, keeping nothing, once the answer would pass the limit */
  add(piece: Buffer): boolean {
    const need = this.size + piece.length;
    if (need > this.maxBytes) return false;
    if (this.size === 0) {
      this.buf = piece;
      this.size = need;
      return true;
    }
    if (need > this.buf.length) {
      const grown = Buffer.allocUnsafe(Math.min(this.maxBytes, Math.max(need, this.buf.length * 2, 16 * 1024)));
      this.buf.copy(grown, 0, 0, this.size);
      this.buf = grown;
    }
    piece.copy(this.buf, this.size);
    this.size = need;
    return true;
  }

  text(): string {
    return this.buf.toString('utf8', 0, this.size);
  }
}

/**
 * One exchange as undici's dispatch handler: the answer gathered as it comes (no stream per call),
 * one deadline over the whole exchange, to the millisecond (connecting, sending, waiting and
 * reading), and the one promise of the call settled once. A failure aborts the request, which
 * closes its connection: a provider cannot fill our memory past the limit or keep a call past its time.
 */
class Exchange implements Dispatcher.DispatchHandler {
  private controller: Dispatcher.DispatchController | null = null;
  private status = 0;
  private headers: IncomingHttpHeaders | undefined;
  private settled = false;
  private readonly gathered: Gathered;
  private readonly timer: NodeJS.Timeout;
  private readonly t0 = performance.now();

  constructor(
    ms: number,
    private maxBytes: number,
    private done: (answer: ChildAnswer) => void,
  ) {
    this.gathered = new Gathered(maxBytes);
    // unreferenced: the connection holds the process open while there is one
    this.timer = setTimeout(overdue, ms, this).unref();
  }

  onRequestStart(controller: Dispatcher.DispatchController): void {
    this.controller = controller;
    if (this.settled) controller.abort(new Error('the exchange ended before its request was sent'));
  }

  onResponseStart(_c: Dispatcher.DispatchController, statusCode: number, headers: IncomingHttpHeaders): void {
    this.status = statusCode;
    this.headers = headers;
    if (Number(headers['content-length']) > this.maxBytes) this.fail('too_large');
  }

  onResponseData(_c: Dispatcher.DispatchController, piece: Buffer): void {
    if (!this.settled && !this.gathered.add(piece)) this.fail('too_large');
  }

  onResponseEnd(): void {
    if (this.settled) return;
    this.settled = true;
    clearTimeout(this.timer);
    const text = this.gathered.text();
    let body: unknown;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      body = undefined;
    }
    this.done({ status: this.status, body, text, ms: Math.round(performance.now() - this.t0), headers: this.headers });
  }

  /** the connection failed, closed early, sent no HTTP answer, or the request could not be sent */
  onResponseError(): void {
    this.fail('network');
  }

  fail(failure: NonNullable<ChildAnswer['failure']>): void {
    if (this.settled) return;
    this.settled = true;
    clearTimeout(this.timer);
    this.controller?.abort(new Error(failure));
    this.done({ status: 0, body: undefined, text: '', ms: Math.round(performance.now() - this.t0), failure });
  }
}

function overdue(exchange: Exchange): void {
  exchange.fail('timeout');
}

export interface ProviderClientOptions {
  /** certificates to trust besides the system's (tests) */
  ca?: string | Buffer;
}

/**
 * svc's connections to providers. Kept-alive connections are pooled per origin and credential (the
 * platform key, each team's own key): a provider that answers twice on one connection can hand the
 * extra answer only to a call made with the same key, never to another team's own-key call. A pool
 * whose last connection closes with nothing waiting is closed and forgotten.
 */
export class ProviderClient {
  private pools = new Map<string, Pool>();

  constructor(private opts: ProviderClientOptions = {}) {}

  private pool(req: OutgoingRequest, { Pool }: typeof import('undici')): Pool {
    const id = `${req.origin}\n${req.credential}`;
    let pool = this.pools.get(id);
    if (!pool) {
      const made = new Pool(req.origin, { connect: this.opts.ca ? { ca: this.opts.ca } : undefined });
      made.on('disconnect', () => {
        if (made.stats.size > 0 || made.stats.connected > 0 || this.pools.get(id) !== made) return;
        this.pools.delete(id);
        void made.close();
      });
      this.pools.set(id, made);
      pool = made;
    }
    return pool;
  }

  /** One request to a provider; never rejects: a failed exchange is an answer with `failure` set. */
  send(req: OutgoingRequest, timeoutMs: number, maxBytes = MAX_ANSWER_BYTES): Promise<ChildAnswer> {
    const lib = undici;
    if (!lib) return loadUndici().then(() => this.send(req, timeoutMs, maxBytes));
    return new Promise((resolve) => {
      const exchange = new Exchange(Math.max(1, timeoutMs), maxBytes, resolve);
      try {
        this.pool(req, lib).dispatch({ method: req.method, path: req.path, headers: { 'user-agent': USER_AGENT, ...req.headers }, body: req.body }, exchange);
      } catch {
        exchange.fail('network'); // a request undici refuses to send (it would not be one)
      }
    });
  }

  /** close every pool (tests) */
  async close(): Promise<void> {
    const pools = [...this.pools.values()];
    this.pools.clear();
    await Promise.all(pools.map((p) => p.destroy()));
  }
}

const client = new ProviderClient();

/** One request to a provider through the process's client; never rejects. */
export function send(req: OutgoingRequest, timeoutMs: number, maxBytes = MAX_ANSWER_BYTES): Promise<ChildAnswer> {
  return client.send(req, timeoutMs, maxBytes);
}
