// Routed calls with an API token, answered straight from Node's request and response through the
// same handler as the h3 route (runtime/router/routed-door.ts: credentials, body reading, error
// shaping), skipping the Web Request/Response conversion. Sessions (cookies) and the rest go to the app.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AppContext } from '../context.ts';
import { answerRoutedCall } from '../router/routed-door.ts';
import type { HeaderReader } from '../router/options.ts';
import { readJsonNode } from '../body.ts';
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
  // only token-bearing calls come this way (below), so there is no session cookie to read
  const a = await answerRoutedCall(ctx, capability, { headers: new NodeHeaders(req), sessionCookie: () => null, readBody: () => readJsonNode(req, ctx.config.maxBodyBytes) });
  a.headers['content-length'] = String(Buffer.byteLength(a.text)); // the same for every merged caller
  res.writeHead(a.status, a.headers);
  res.end(a.text);
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
