// One HTTP exchange with a provider, over svc's own keep-alive client (runtime/provider-client/:
// HTTP/1.1, no redirects followed, so a provider cannot bounce a call, or our key, to another host).
// Its own client rather than undici's: for the one request and answer of an attempt it runs about a
// third of the code, which a call on one connection pays for cold (bench/README.md, session 17).
import { ProviderPool } from '../provider-client/pool.ts';
import type { AnswerHandler, Connection } from '../provider-client/connection.ts';
import type { OutgoingRequest } from './build-request.ts';
import { Deadlines } from '../util/deadlines.ts';

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

const pool = new ProviderPool();
const deadlines = new Deadlines();

/**
 * One exchange: the handler the connection tells of its answer (one object per call rather than a
 * closure per event), settling the one promise of the call with its ChildAnswer.
 */
class Exchange implements AnswerHandler {
  private chunks: Buffer[] = [];
  private code = 0;
  private size = 0;
  private conn: Connection | null = null;
  private settled = false;
  private t0 = performance.now();

  // One deadline for the whole exchange, to the millisecond: connecting, sending, waiting and reading.
  constructor(timeoutMs: number, private maxBytes: number, private done: (answer: ChildAnswer) => void) {
    deadlines.start(this, timeoutMs);
  }

  start(req: OutgoingRequest): void {
    try {
      this.conn = pool.send(req, this);
    } catch {
      this.settle('network'); // a request the client refuses to send (it would not be one) is a network failure
    }
  }

  overdue(): void {
    this.conn?.abort(this);
    this.settle('timeout');
  }

  status(code: number): void {
    this.code = code;
  }

  body(piece: Buffer): boolean {
    this.size += piece.length;
    // Past the limit the connection is dropped rather than read on: a provider cannot fill our memory.
    if (this.size > this.maxBytes) {
      this.settle('too_large');
      return false;
    }
    this.chunks.push(piece);
    return true;
  }

  end(): void {
    deadlines.end(this);
    if (this.settled) return;
    this.settled = true;
    const { chunks } = this;
    const text = chunks.length === 1 ? chunks[0].toString('utf8') : Buffer.concat(chunks).toString('utf8');
    let body: unknown;
    try { body = text ? JSON.parse(text) : undefined; } catch { body = undefined; }
    this.done({ status: this.code, body, text, ms: Math.round(performance.now() - this.t0) });
  }

  /** the connection failed, closed early or sent no HTTP answer */
  fail(): void {
    this.settle('network');
  }

  private settle(failure: NonNullable<ChildAnswer['failure']>): void {
    deadlines.end(this);
    if (this.settled) return;
    this.settled = true;
    this.done({ status: 0, body: undefined, text: '', ms: Math.round(performance.now() - this.t0), failure });
  }
}

/** One request to a provider; never rejects: a failed exchange is an answer with `failure` set. */
export function send(req: OutgoingRequest, timeoutMs: number, maxBytes = MAX_ANSWER_BYTES): Promise<ChildAnswer> {
  return new Promise((resolve) => new Exchange(Math.max(1, timeoutMs), maxBytes, resolve).start(req));
}
