// The only file that listens: Node's HTTP server, every request through h3's Node adapter except
// the ones the one fast path takes (runtime/http/fast-path.ts). node:http directly rather than a serve
// helper: a taken port must fail the start (not move to another port), and a drain has to see every
// request in flight, the fast path's as well as the app's.
import { createServer, ServerResponse, STATUS_CODES, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { toNodeHandler } from 'h3/node';
import type { H3 } from 'h3';
import type { NodeFastPath } from './fast-path.ts';
import { answerClientError, refuseVersion } from './malformed-requests.ts';

/**
 * h3's Node adapter passes a Response's statusText, empty unless set, as the reason phrase, so a
 * 401's status line would end in an empty phrase; the standard phrase fills an empty one.
 */
const writeHead = ServerResponse.prototype.writeHead as (this: ServerResponse, status: number, ...rest: unknown[]) => ServerResponse;
function writeHeadWithReason(this: ServerResponse, status: number, ...rest: unknown[]): ServerResponse {
  if (rest[0] === '') rest[0] = STATUS_CODES[status] ?? '';
  return writeHead.call(this, status, ...rest);
}

/** The port is held by another process: the start stops with this sentence. */
export class PortTaken extends Error {
  constructor(
    readonly port: number,
    host: string,
    setting = 'PORT',
  ) {
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
 * Whether the fast path took the request. One that throws before taking it (the router could not
 * be made, say) leaves it to the app, whose error shaper answers it, rather than to an uncaught
 * exception.
 */
function takes(fast: NodeFastPath, req: IncomingMessage, res: ServerResponse): boolean {
  try {
    return fast(req, res);
  } catch {
    return false;
  }
}

export interface ServerOptions {
  port: number;
  hostname?: string;
  fast?: NodeFastPath;
}

export function startServer(app: H3, opts: ServerOptions): Promise<RunningServer> {
  const h3 = toNodeHandler(app);
  const fast = opts.fast;
  let inFlight = 0;
  let idle: (() => void) | null = null;
  const closed = () => {
    if (--inFlight === 0) idle?.();
  };
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    inFlight++;
    res.on('close', closed);
    if (refuseVersion(req, res)) return;
    if (fast && takes(fast, req, res)) return;
    res.writeHead = writeHeadWithReason as ServerResponse['writeHead'];
    void h3(req, res);
  });
  server.on('clientError', answerClientError);
  const host = opts.hostname ?? '127.0.0.1';
  const drain = async (ms: number): Promise<number> => {
    const closed = new Promise<void>((done) => server.close(() => done()));
    server.closeIdleConnections();
    if (inFlight > 0) {
      await new Promise<void>((done) => {
        const t = setTimeout(done, ms);
        idle = () => {
          clearTimeout(t);
          done();
        };
      });
    }
    const unfinished = inFlight;
    server.closeAllConnections();
    await closed;
    return unfinished;
  };
  return new Promise((resolve, reject) => {
    server.once('error', (e: NodeJS.ErrnoException) => reject(listenError(e, opts.port, host)));
    server.listen(opts.port, host, () => {
      const port = (server.address() as AddressInfo).port;
      resolve({
        port,
        url: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
        drain,
        close: async () => {
          await drain(0);
        },
      });
    });
  });
}
