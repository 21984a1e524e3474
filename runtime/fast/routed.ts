// Routed calls with an API token, answered straight from Node's request and response through the
// same handler as the h3 route (runtime/router/routed-door.ts: credentials, body reading, error
// shaping), skipping the Web Request/Response conversion. Sessions (cookies) and the rest go to the app.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AppContext } from '../context.ts';
import { answerRoutedCall, type RoutedRequest } from '../router/routed-door.ts';
import type { HeaderReader } from '../router/options.ts';
import type { PlainAnswer } from '../errors.ts';
import { readJsonNode } from '../body.ts';
import type { NodeFastPath } from './entries.ts';

/**
 * One call as Node hands it over, its headers, body and answer in one object: no closures made per
 * call. Node lower-cases header names already, and callers ask in lower case; repeated ones are
 * joined as Headers would.
 */
class NodeCall implements RoutedRequest, HeaderReader {
  constructor(private req: IncomingMessage, private res: ServerResponse, private maxBodyBytes: number) {}

  get headers(): HeaderReader {
    return this;
  }

  get(name: string): string | null {
    const v = this.req.headers[name];
    return v === undefined ? null : Array.isArray(v) ? v.join(', ') : v;
  }

  keys(): Iterable<string> {
    return Object.keys(this.req.headers);
  }

  /** only token-bearing calls come this way (below), so there is no session cookie to read */
  sessionCookie(): null {
    return null;
  }

  readBody(): Promise<unknown> {
    return readJsonNode(this.req, this.maxBodyBytes);
  }

  write(a: PlainAnswer): void {
    a.headers['content-length'] = String(Buffer.byteLength(a.text)); // the same for every merged caller
    this.res.writeHead(a.status, a.headers);
    this.res.end(a.text);
  }
}

export function fastRouted(ctx: AppContext): NodeFastPath {
  const prefix = `${ctx.config.proxyPrefix}/`;
  return (req, res) => {
    if (req.method !== 'POST' || !req.url?.startsWith(prefix) || !req.headers['x-svc-token']) return false;
    const capability = req.url.slice(prefix.length);
    if (capability.includes('/') || capability.includes('?') || !ctx.router.isCapability(capability)) return false;
    const call = new NodeCall(req, res, ctx.config.maxBodyBytes);
    // answerRoutedCall never rejects: errors come back as their answer
    void answerRoutedCall(ctx, capability, call).then((a) => call.write(a));
    return true;
  };
}
