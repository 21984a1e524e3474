// One HTTP exchange with a provider, through undici: a Pool per origin and credential, the
// attempt's deadline over the whole exchange, a size limit on the answer, and no redirects followed
// (undici's request() follows none), so a provider cannot bounce a call, or our key, to another host.
import { Pool } from 'undici';
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

/** the default for SVC_MAX_ANSWER_BYTES: far above any single record, far below trouble */
export const MAX_ANSWER_BYTES = 8 * 1024 * 1024;

const USER_AGENT = 'svc';

/** An answer past the size limit, thrown from the body's reading. */
class TooLarge extends Error {}

/**
 * An answer's bytes gathered into one buffer that grows by doubling: memory follows the bytes, not
 * the number of pieces they came in (an answer of 8M one-byte chunks holds 8 MB, not 8M buffers).
 */
class Gathered {
  private buf = Buffer.allocUnsafe(0);
  private size = 0;

  constructor(private maxBytes: number) {}

  add(piece: Buffer): void {
    const need = this.size + piece.length;
    if (need > this.maxBytes) throw new TooLarge();
    if (need > this.buf.length) {
      const grown = Buffer.allocUnsafe(Math.min(this.maxBytes, Math.max(need, this.buf.length * 2, 16 * 1024)));
      this.buf.copy(grown, 0, 0, this.size);
      this.buf = grown;
    }
    piece.copy(this.buf, this.size);
    this.size = need;
  }

  text(): string {
    return this.buf.toString('utf8', 0, this.size);
  }
}

const isTimeout = (e: unknown): boolean => {
  const { name, code } = e as { name?: string; code?: string };
  // the exchange's signal is its deadline, so an abort is the deadline passing
  return name === 'TimeoutError' || code === 'UND_ERR_ABORTED';
};

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

  private pool(req: OutgoingRequest): Pool {
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
  async send(req: OutgoingRequest, timeoutMs: number, maxBytes = MAX_ANSWER_BYTES): Promise<ChildAnswer> {
    const t0 = performance.now();
    const ms = Math.max(1, timeoutMs);
    const failed = (failure: NonNullable<ChildAnswer['failure']>): ChildAnswer => ({ status: 0, body: undefined, text: '', ms: Math.round(performance.now() - t0), failure });
    try {
      // One deadline for the whole exchange, to the millisecond: connecting, sending, waiting and
      // reading. A signal rather than undici's headers and body timeouts, whose timers tick coarsely
      // (they may fire tens of milliseconds early past a second) and restart per byte.
      const answer = await this.pool(req).request({
        method: req.method as 'GET',
        path: req.path,
        headers: { 'user-agent': USER_AGENT, ...req.headers },
        body: req.body,
        signal: AbortSignal.timeout(ms),
      });
      const gathered = new Gathered(maxBytes);
      try {
        if (Number(answer.headers['content-length']) > maxBytes) throw new TooLarge();
        for await (const piece of answer.body) gathered.add(piece as Buffer);
      } catch (e) {
        // Past the limit the connection is dropped rather than read on: a provider cannot fill our memory.
        answer.body.destroy();
        throw e;
      }
      const text = gathered.text();
      let body: unknown;
      try { body = text ? JSON.parse(text) : undefined; } catch { body = undefined; }
      return { status: answer.statusCode, body, text, ms: Math.round(performance.now() - t0) };
    } catch (e) {
      return failed(e instanceof TooLarge ? 'too_large' : isTimeout(e) ? 'timeout' : 'network');
    }
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
