// The only file that listens. Everything else is the app, callable as app.fetch(request).
import { ServerResponse, STATUS_CODES } from 'node:http';
import { listen, type Listener } from 'listhen';
import { toNodeHandler } from 'h3/node';
import type { H3 } from 'h3';
import type { NodeFastPath } from './fast-path.ts';

/**
 * h3's Node adapter passes a Response's statusText, empty unless set, as the reason phrase, so a
 * 401 read `HTTP/1.1 401 `; the standard phrase fills an empty one.
 */
const writeHead = ServerResponse.prototype.writeHead as (this: ServerResponse, status: number, ...rest: unknown[]) => ServerResponse;
function writeHeadWithReason(this: ServerResponse, status: number, ...rest: unknown[]): ServerResponse {
  if (rest[0] === '') rest[0] = STATUS_CODES[status] ?? '';
  return writeHead.call(this, status, ...rest);
}

export async function startServer(app: H3, opts: { port: number; hostname?: string; quiet?: boolean; fast?: NodeFastPath }): Promise<Listener> {
  const h3 = toNodeHandler(app);
  const handler = (req: Parameters<typeof h3>[0], res: ServerResponse) => { res.writeHead = writeHeadWithReason as ServerResponse['writeHead']; void h3(req, res); };
  const fast = opts.fast;
  return listen(fast ? (req, res) => { if (!fast(req, res)) handler(req, res); } : handler, {
    port: opts.port,
    hostname: opts.hostname ?? '127.0.0.1',
    showURL: !opts.quiet,
    qr: false,
    public: false,
    tunnel: false,
    open: false,
    clipboard: false,
  });
}
