// The one Node-level fast path: routed calls with an API token, answered through the same handler
// as the h3 route (runtime/http/routed-door.ts: credentials, body reading, error shaping) straight
// from Node's request and response, skipping the Web Request/Response conversion (its worth is
// measured in bench/README.md). Sessions (cookies) and everything else go to the app.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AppContext } from '../context/context.ts';
import { answerRoutedCall, type RoutedRequest } from './routed-door.ts';
import type { HeaderReader } from '../router/options.ts';
import type { PlainAnswer } from '../util/fail.ts';
import { readJsonNode } from './body.ts';

export type NodeFastPath = (req: IncomingMessage, res: ServerResponse) => boolean;

/**
 * One call as Node hands it over, its headers, body and answer in one object. Node lower-cases
 * header names already, and callers ask in lower case; repeated ones are joined as Headers would.
 */
class NodeCall implements RoutedRequest, HeaderReader {
  constructor(
    private req: IncomingMessage,
    private res: ServerResponse,
    private maxBodyBytes: number,
  ) {}

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

  /** the connection closed (or the client's FIN made Node's server abort the request) before the answer */
  gone(): boolean {
    return this.res.destroyed || this.req.aborted || this.req.errored !== null;
  }

  write(a: PlainAnswer): void {
    a.headers['content-length'] = String(Buffer.byteLength(a.text)); // the same for every merged caller
    this.res.writeHead(a.status, a.headers);
    this.res.end(a.text);
  }
}

/** the capability a POST with an API token routes to, or null when the request is not one */
function routedCapability(ctx: AppContext, req: IncomingMessage): string | null {
  const prefix = ctx.config.proxyPrefix;
  const url = req.url;
  if (req.method !== 'POST' || !url?.startsWith(prefix) || url.charCodeAt(prefix.length) !== 0x2f || !req.headers['x-svc-token']) return null;
  const capability = url.slice(prefix.length + 1);
  return capability.includes('/') || capability.includes('?') || !ctx.router.isCapability(capability) ? null : capability;
}

export function fastPath(ctx: AppContext): NodeFastPath {
  return (req, res) => {
    const capability = routedCapability(ctx, req);
    if (capability === null) return false;
    const call = new NodeCall(req, res, ctx.config.maxBodyBytes);
    // answerRoutedCall never rejects: errors come back as their answer
    void answerRoutedCall(ctx, capability, call).then((a) => call.write(a));
    return true;
  };
}
