// One client connection while svc's front reads it: simple requests (simple-request.ts) that the
// front's taker takes are answered here, one at a time and in order; at the first request it does not
// take, the connection goes to Node's HTTP server with every byte not yet answered, for good.
import { channel } from 'node:diagnostics_channel';
import type { Socket } from 'node:net';
import type { PlainAnswer } from '../errors.ts';
import { simpleRequest, type SimpleLimits, type SimpleRequest } from './simple-request.ts';
import { answerBytes } from './answer-bytes.ts';

/** Answers a request through `reply` (once) and says true, or says false: not one it takes. */
export type FrontTaker = (req: SimpleRequest, reply: (a: PlainAnswer) => void) => boolean;

/** What a connection is kept by: the front (front.ts). */
export interface FrontHome {
  readonly take: FrontTaker;
  readonly limits: SimpleLimits;
  readonly keepAliveMs: number;
  /** the server is draining: answers close their connections */
  readonly closing: boolean;
  /** the connection, and the bytes read but not answered, to Node's server */
  handOff(socket: Socket, unread: Buffer | null): void;
  readonly counts: FrontCounts;
  forget(conn: FrontConnection): void;
}

/** Counts what the front answers, as the server counts what Node's server answers. */
export interface FrontCounts {
  /** a request taken: answers whether the server's crowd counts it, to be told back when it is answered */
  started(req: SimpleRequest): boolean;
  finished(counted: boolean): void;
}

// Published for tracing, as Node's server publishes its own (bench/phase-probe.mjs reads them): a request read, its answer written.
const requestChannel = channel('svc:front:request-read');
const answerChannel = channel('svc:front:answer-written');

export class FrontConnection {
  /** bytes read and not yet taken as a request */
  private unread: Buffer | null = null;
  /** a request is being answered */
  private busy = false;
  /** whether the server's crowd counts the request being answered */
  private counted = false;
  private answers = 0;
  /** the client has sent all it will (a half-close) */
  private ended = false;
  private readonly keepAliveS: number;

  constructor(readonly socket: Socket, private readonly home: FrontHome) {
    this.keepAliveS = Math.floor(home.keepAliveMs / 1000);
    socket.on('data', this.onData);
    socket.on('end', this.onEnd);
    socket.on('timeout', this.onTimeout);
    socket.on('error', this.onError);
    socket.on('close', this.onClose);
    socket.setTimeout(home.keepAliveMs);
  }

  /** a connection between requests is closed at once; one answering closes after its answer */
  closeIdle(): void {
    if (!this.busy) this.socket.destroy();
  }

  // Listeners as fields: made once per connection, and removable for the hand-off.
  private readonly onData = (chunk: Buffer): void => {
    this.unread = this.unread ? Buffer.concat([this.unread, chunk]) : chunk;
    if (!this.busy) this.next();
  };

  private readonly onEnd = (): void => {
    this.ended = true;
    if (!this.busy && !this.unread) this.socket.end();
  };

  /** idle for the keep-alive time: closed after an answer; before any, Node's server decides */
  private readonly onTimeout = (): void => {
    if (this.busy) return;
    if (this.answers > 0) this.socket.destroy();
    else this.handOff();
  };

  private readonly onError = (): void => {
    this.socket.destroy();
  };

  private readonly onClose = (): void => {
    this.home.forget(this);
  };

  private readonly reply = (a: PlainAnswer): void => {
    this.busy = false;
    this.answers++;
    this.home.counts.finished(this.counted);
    const socket = this.socket;
    if (socket.destroyed) return;
    const last = this.home.closing || (this.ended && !this.unread);
    try {
      socket.write(answerBytes(a, last ? null : this.keepAliveS));
      if (answerChannel.hasSubscribers) answerChannel.publish(this);
    } catch (e) {
      process.stderr.write(`svc: an answer could not be written (${(e as Error).message}); its connection is closed\n`);
      socket.destroy();
      return;
    }
    if (last) {
      socket.end();
      return;
    }
    socket.resume();
    if (this.unread) this.next();
  };

  /** the next request read: answered here when simple and taken, else the connection is handed off */
  private next(): void {
    const unread = this.unread!;
    const req = simpleRequest(unread, this.home.limits);
    if (!req) {
      this.handOff();
      return;
    }
    if (requestChannel.hasSubscribers) requestChannel.publish(req);
    this.unread = req.end < unread.length ? unread.subarray(req.end) : null;
    this.busy = true;
    this.counted = this.home.counts.started(req);
    if (!this.home.take(req, this.reply)) {
      this.busy = false;
      this.home.counts.finished(this.counted);
      this.unread = unread;
      this.handOff();
      return;
    }
    // requests sent ahead (pipelined) wait in the kernel, not here, until this one is answered
    if (this.unread && this.busy) this.socket.pause();
  }

  private handOff(): void {
    const { socket } = this;
    socket.removeListener('data', this.onData);
    socket.removeListener('end', this.onEnd);
    socket.removeListener('timeout', this.onTimeout);
    socket.removeListener('error', this.onError);
    socket.removeListener('close', this.onClose);
    socket.setTimeout(0);
    this.home.forget(this);
    this.home.handOff(socket, this.unread);
    this.unread = null;
  }
}
