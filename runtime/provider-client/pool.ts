// Connections to providers, kept alive between requests, per origin: the most recently used idle
// connection first (so a light load keeps few sockets warm), a new one when none is idle. No
// redirect is followed and nothing is retried: a provider cannot bounce a call, or our key, to
// another host, and a request it may have billed is never sent twice. An idle connection is reused
// only within the time its server said it keeps it (Keep-Alive: timeout, less a second for the
// way there), else for 4 s (under Node's and most servers' 5 s), so a request rarely meets a
// connection the server is closing.
import { connect as tcpConnect, isIP, type Socket } from 'node:net';
import type { ConnectionOptions, connect as tlsConnectFn } from 'node:tls';
import { Connection, type AnswerHandler, type ConnectionHome } from './connection.ts';
import { BadRequest, requestBytes, type ClientRequest } from './request-bytes.ts';

export interface PoolOptions {
  /** added to every TLS connection's options (a test's own certificate authority) */
  tls?: ConnectionOptions;
  /** how long an idle connection is reused when its server says nothing (default 4 s) */
  idleMs?: number;
}

const DEFAULT_IDLE_MS = 4_000;
/** taken off a server's own keep-alive time, for the request's way there */
const MARGIN_MS = 1_000;
const LONGEST_IDLE_MS = 10 * 60_000;
const SWEEP_MS = 1_000;

/** One origin's idle connections, and where to reach it. */
class Origin implements ConnectionHome {
  readonly idle: Connection[] = [];

  constructor(
    readonly secure: boolean,
    /** the name or address to connect to (an IPv6 address without its brackets) */
    readonly host: string,
    readonly port: number,
    /** the Host header: the name, and the port when not the scheme's own */
    readonly hostHeader: string,
    private readonly idleMs: number,
    private readonly kept: () => void,
  ) {}

  keep(conn: Connection, keepAliveMs: number | null): void {
    const ms = keepAliveMs === null ? this.idleMs : Math.min(keepAliveMs - MARGIN_MS, LONGEST_IDLE_MS);
    if (ms <= 0) {
      conn.socket.destroy();
      return;
    }
    conn.idleUntil = Date.now() + ms;
    conn.socket.unref();
    this.idle.push(conn);
    this.kept();
  }

  forget(conn: Connection): void {
    const i = this.idle.indexOf(conn);
    if (i >= 0) this.idle.splice(i, 1);
  }

  /** an idle connection still within its time, else null */
  take(): Connection | null {
    const now = Date.now();
    for (let conn = this.idle.pop(); conn; conn = this.idle.pop()) {
      if (conn.idleUntil > now && !conn.socket.destroyed) return conn;
      conn.socket.destroy();
    }
    return null;
  }

  /** drop the idle connections past their time; answers how many are left */
  sweep(now: number): number {
    for (let i = this.idle.length - 1; i >= 0; i--) {
      if (this.idle[i].idleUntil > now) continue;
      this.idle[i].socket.destroy();
      this.idle.splice(i, 1);
    }
    return this.idle.length;
  }
}

// node:tls only once an https origin is called: a start that calls none need not load it
let tlsConnect: typeof tlsConnectFn | null = null;

export class ProviderPool {
  private readonly origins = new Map<string, Origin>();
  private sweeper: NodeJS.Timeout | null = null;
  private readonly startSweeping = () => { this.sweeper ??= setInterval(() => this.sweep(), SWEEP_MS).unref(); };

  constructor(private readonly options: PoolOptions = {}) {}

  /**
   * Send one request; `handler` hears of its answer. Answers the connection carrying it (to abort).
   * Throws BadRequest, sending nothing, for a request that is not one.
   */
  send(req: ClientRequest, handler: AnswerHandler): Connection {
    const origin = this.origin(req.origin);
    const bytes = requestBytes(req, origin.hostHeader);
    const conn = origin.take() ?? new Connection(this.connect(origin), origin);
    conn.send(bytes, req.method, handler);
    return conn;
  }

  /** close every idle connection (requests in flight keep theirs until they end) */
  close(): void {
    for (const origin of this.origins.values()) for (const conn of origin.idle.splice(0)) conn.socket.destroy();
    this.stopSweeping();
  }

  private origin(text: string): Origin {
    const known = this.origins.get(text);
    if (known) return known;
    let url: URL;
    try {
      url = new URL(text);
    } catch {
      throw new BadRequest(`not an origin: ${JSON.stringify(text.slice(0, 80))}`);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new BadRequest(`not an http or https origin: ${url.protocol}`);
    const secure = url.protocol === 'https:';
    const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
    const origin = new Origin(secure, host, Number(url.port) || (secure ? 443 : 80), url.host, this.options.idleMs ?? DEFAULT_IDLE_MS, this.startSweeping);
    this.origins.set(text, origin);
    return origin;
  }

  private connect(origin: Origin): Socket {
    if (!origin.secure) return tcpConnect({ host: origin.host, port: origin.port });
    tlsConnect ??= process.getBuiltinModule('node:tls').connect;
    // SNI names a host, never an address; ALPN asks for HTTP/1.1, the only protocol spoken here
    const servername = isIP(origin.host) ? undefined : origin.host;
    return tlsConnect({ host: origin.host, port: origin.port, servername, ALPNProtocols: ['http/1.1'], ...this.options.tls });
  }

  /** drop idle connections past their time; stop once none is idle */
  private sweep(): void {
    const now = Date.now();
    let left = 0;
    for (const origin of this.origins.values()) left += origin.sweep(now);
    if (left === 0) this.stopSweeping();
  }

  private stopSweeping(): void {
    if (this.sweeper) clearInterval(this.sweeper);
    this.sweeper = null;
  }
}
