// The only file that listens. Everything else is the app, callable as app.fetch(request).
// node:http directly: a taken port must fail the start (not move to another port), and a drain has
// to see every request in flight, the Node fast path's as well as the app's.
import { createServer, maxHeaderSize, ServerResponse, STATUS_CODES, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { toNodeHandler } from 'h3/node';
import type { H3 } from 'h3';
import type { NodeFastPath } from './fast-path.ts';
import { Front } from './front/front.ts';
import type { FrontTaker } from './front/connection.ts';

/**
 * h3's Node adapter passes a Response's statusText, empty unless set, as the reason phrase, so a
 * 401 read `HTTP/1.1 401 `; the standard phrase fills an empty one.
 */
const writeHead = ServerResponse.prototype.writeHead as (this: ServerResponse, status: number, ...rest: unknown[]) => ServerResponse;
function writeHeadWithReason(this: ServerResponse, status: number, ...rest: unknown[]): ServerResponse {
  if (rest[0] === '') rest[0] = STATUS_CODES[status] ?? '';
  return writeHead.call(this, status, ...rest);
}

/** The port is held by another process: the start stops with this sentence. */
export class PortTaken extends Error {
  constructor(readonly port: number, host: string, setting = 'PORT') {
    super(`port ${port} on ${host} is already in use by another process; stop it or set ${setting} to a free port.`);
  }
}

/** a listen error as the start reports it: PortTaken for a port in use */
export function listenError(e: NodeJS.ErrnoException, port: number, host: string, setting?: string): Error {
  return e.code === 'EADDRINUSE' ? new PortTaken(port, host, setting) : e;
}

export interface RunningServer {
  port: number;
  /** http://<host>:<port>, no trailing slash */
  url: string;
  /**
   * Stop accepting connections, wait for the requests in flight to finish (at most `ms`), then close
   * every connection. Answers how many requests were still unfinished when the wait ended.
   */
  drain(ms: number): Promise<number>;
  /** drain(0): close at once */
  close(): Promise<void>;
}

/**
 * Whether a fast reader (the Node fast path, svc's front) took the request. One that throws before
 * taking it (the router could not be made, say) leaves it to the app, whose error shaper answers
 * it, rather than to an uncaught exception.
 */
function takes<A extends unknown[]>(take: (...args: A) => boolean, ...args: A): boolean {
  try {
    return take(...args);
  } catch {
    return false;
  }
}

/** `call` runs once, the first time `inFlight` requests that `counts` are in flight together, or once `total` of them have come */
export interface Crowd {
  inFlight: number;
  total: number;
  counts: (req: { url?: string }) => boolean;
  call: () => void;
}

export interface ServerOptions {
  port: number;
  hostname?: string;
  fast?: NodeFastPath;
  /** what svc's front answers itself (runtime/front/), and the largest body it reads */
  front?: { take: FrontTaker; maxBodyBytes: number };
  crowd?: Crowd;
}

export function startServer(app: H3, opts: ServerOptions): Promise<RunningServer> {
  const h3 = toNodeHandler(app);
  const fast = opts.fast;
  let inFlight = 0;
  let crowd = opts.crowd;
  let crowded = 0;
  let came = 0;
  let idle: (() => void) | null = null;
  /** a request came (by either reader): whether the crowd counts it */
  const arrived = (req: { url?: string }): boolean => {
    inFlight++;
    const counted = crowd?.counts(req) === true;
    if (counted && (++crowded === crowd!.inFlight || ++came === crowd!.total)) {
      crowd!.call();
      crowd = undefined;
    }
    return counted;
  };
  // two listeners made once per server, not a closure per request: a response closes once
  const closed = () => { if (--inFlight === 0) idle?.(); };
  const countedClosed = () => { crowded--; closed(); };
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    res.on('close', arrived(req) ? countedClosed : closed);
    if (fast && takes(fast, req, res)) return;
    res.writeHead = writeHeadWithReason as ServerResponse['writeHead'];
    void h3(req, res);
  });
  const reads = opts.front;
  const front = reads && new Front(server, (req, reply) => takes(reads.take, req, reply), { headBytes: maxHeaderSize, bodyBytes: reads.maxBodyBytes }, {
    started: (req) => arrived({ url: req.target }),
    finished: (counted) => (counted ? countedClosed() : closed()),
  });
  const host = opts.hostname ?? '127.0.0.1';
  const drain = async (ms: number): Promise<number> => {
    const closed = new Promise<void>((done) => server.close(() => done()));
    server.closeIdleConnections();
    front?.closeIdle();
    if (inFlight > 0) {
      await new Promise<void>((done) => {
        const t = setTimeout(done, ms);
        idle = () => { clearTimeout(t); done(); };
      });
    }
    const unfinished = inFlight;
    server.closeAllConnections();
    front?.closeAll();
    await closed;
    return unfinished;
  };
  return new Promise((resolve, reject) => {
    server.once('error', (e: NodeJS.ErrnoException) => reject(listenError(e, opts.port, host)));
    server.listen(opts.port, host, () => {
      const port = (server.address() as AddressInfo).port;
      resolve({ port, url: `http://${host.includes(':') ? `[${host}]` : host}:${port}`, drain, close: async () => { await drain(0); } });
    });
  });
}
