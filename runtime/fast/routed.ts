// Routed calls with an API token, answered straight from Node's request and response through the
// same handler as the h3 route (runtime/router/handle.ts), skipping the Web Request/Response
// conversion. Dashboard sessions (cookies) and everything else go to the app.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { HTTPError } from 'h3';
import type { AppContext } from '../context.ts';
import { errorResponse } from '../errors.ts';
import { handleRouted } from '../router/handle.ts';
import type { HeaderReader } from '../router/options.ts';
import { parseJsonText, readNode } from '../body.ts';
import type { NodeFastPath } from './entries.ts';

/** Node lower-cases header names already, and callers ask in lower case; joining repeated ones as Headers would. */
class NodeHeaders implements HeaderReader {
  constructor(private req: IncomingMessage) {}

  get(name: string): string | null {
    const v = this.req.headers[name];
    return v === undefined ? null : Array.isArray(v) ? v.join(', ') : v;
  }

  keys(): Iterable<string> {
    return Object.keys(this.req.headers);
  }
}

async function answer(ctx: AppContext, capability: string, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const headers = new NodeHeaders(req);
  try {
    const credentials = { token: headers.get('x-svc-token'), session: null, org: headers.get('x-svc-org') };
    const a = await handleRouted(ctx, capability, headers, credentials, async () => parseJsonText(await readNode(req, ctx.config.maxBodyBytes)));
    a.headers['content-length'] = String(Buffer.byteLength(a.text)); // the same for every merged caller
    res.writeHead(a.status, a.headers);
    res.end(a.text);
  } catch (e) {
    const error = e instanceof HTTPError ? e : new HTTPError({ status: 500, message: 'unhandled', cause: e });
    const r = errorResponse(error);
    const text = await r.text();
    res.writeHead(r.status, { ...Object.fromEntries(r.headers), 'content-length': Buffer.byteLength(text) });
    res.end(text);
  }
}

export function fastRouted(ctx: AppContext): NodeFastPath {
  const prefix = `${ctx.config.proxyPrefix}/`;
  return (req, res) => {
    if (req.method !== 'POST' || !req.url?.startsWith(prefix) || !req.headers['x-svc-token']) return false;
    const capability = req.url.slice(prefix.length);
    if (capability.includes('/') || capability.includes('?') || !ctx.router.isCapability(capability)) return false;
    void answer(ctx, capability, req, res);
    return true;
  };
}
