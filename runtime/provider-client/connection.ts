// One kept-alive connection to a provider: one request at a time, its answer read by AnswerParser,
// then back to the pool when the answer says it may be kept. Its listeners are made once, with the
// connection, not per request.
import { channel } from 'node:diagnostics_channel';
import type { Socket } from 'node:net';
import { AnswerParser, type AnswerSink } from './answer-parser.ts';

/** What a request's sender is told: the final status, body pieces, then the end or a failure (each request gets one of the two). */
export interface AnswerHandler {
  status(code: number): void;
  /** a piece of the body (the sender may keep it); false: stop reading, the connection is dropped and nothing more is told */
  body(piece: Buffer): boolean;
  end(): void;
  /** no whole answer: the connection failed, closed early, or sent something that is not HTTP */
  fail(reason: string): void;
}

/** Where a connection goes back to, or leaves, once its answer is read. */
export interface ConnectionHome {
  keep(conn: Connection, keepAliveMs: number | null): void;
  forget(conn: Connection): void;
}

// Published for tracing (bench/phase-probe.mjs reads them): the request handed to the socket, the answer read whole.
const sentChannel = channel('svc:provider:request-sent');
const answeredChannel = channel('svc:provider:answer-read');

export class Connection implements AnswerSink {
  private readonly parser = new AnswerParser();
  private handler: AnswerHandler | null = null;
  /** when the pool stops reusing it (set by the pool on each return) */
  idleUntil = 0;

  constructor(readonly socket: Socket, private readonly home: ConnectionHome) {
    socket.setNoDelay(true);
    socket.setKeepAlive(true, 60_000);
    socket.on('data', (chunk: Buffer) => {
      if (this.parser.reading) this.parser.feed(chunk);
      else socket.destroy(); // bytes no request asked for: the connection cannot be trusted with another
    });
    socket.on('end', () => {
      this.home.forget(this);
      this.parser.closed();
    });
    socket.on('error', (e: NodeJS.ErrnoException) => this.lost(e.code ?? e.message));
    socket.on('close', () => this.lost('the connection closed'));
  }

  /** Send `bytes` (one request of `method`) and tell `handler` of its answer. */
  send(bytes: string | Buffer, method: string, handler: AnswerHandler): void {
    this.handler = handler;
    this.parser.expect(method, this);
    this.socket.ref(); // a request in flight holds the process open; an idle connection does not (Origin.keep)
    this.socket.write(bytes);
    if (sentChannel.hasSubscribers) sentChannel.publish(this);
  }

  /** `handler` wants no more (its time ran out): the connection goes, with the answer it was reading. */
  abort(handler: AnswerHandler): void {
    if (this.handler !== handler) return;
    this.handler = null;
    this.parser.abandon();
    this.socket.destroy();
  }

  head(status: number): void {
    this.handler!.status(status);
  }

  body(piece: Buffer): boolean {
    const more = this.handler!.body(piece);
    if (!more) {
      this.handler = null;
      this.socket.destroy();
    }
    return more;
  }

  done(reusable: boolean, keepAliveMs: number | null): void {
    const handler = this.handler!;
    this.handler = null;
    // back to the pool before the sender hears, so whatever the sender does next may take it
    if (reusable) this.home.keep(this, keepAliveMs);
    else this.socket.destroy();
    if (answeredChannel.hasSubscribers) answeredChannel.publish(this);
    handler.end();
  }

  broken(reason: string): void {
    const handler = this.handler!;
    this.handler = null;
    this.socket.destroy();
    handler.fail(reason);
  }

  private lost(reason: string): void {
    this.home.forget(this);
    const handler = this.handler;
    if (!handler) return;
    this.handler = null;
    this.parser.abandon();
    this.socket.destroy();
    handler.fail(reason);
  }
}
