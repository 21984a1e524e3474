// Routed calls with an API token, answered through the same handler as the h3 route
// (runtime/router/routed-door.ts: credentials, body reading, error shaping) by whichever reader has
// them: svc's front (runtime/front/) for a simple request, else straight from Node's request and
// response, skipping the Web Request/Response conversion. Sessions (cookies) and the rest go to the app.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AppContext } from '../context.ts';
import { answerRoutedCall, type RoutedRequest } from '../router/routed-door.ts';
import type { HeaderReader } from '../router/options.ts';
import type { PlainAnswer } from '../errors.ts';
import { parseJsonText, readJsonNode } from '../body.ts';
import type { FrontTaker } from '../front/connection.ts';
import type { SimpleRequest } from '../front/simple-request.ts';
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

/** the capability a request routes to when one of the fast readers may take it: a POST with an API token to a known capability */
function routedCapability(ctx: AppContext, method: string | undefined, url: string | undefined, token: unknown): string | null {
  const prefix = ctx.config.proxyPrefix;
  if (method !== 'POST' || !url?.startsWith(prefix) || url.charCodeAt(prefix.length) !== 0x2f || !token) return null;
  const capability = url.slice(prefix.length + 1);
  return capability.includes('/') || capability.includes('?') || !ctx.router.isCapability(capability) ? null : capability;
}

export function fastRouted(ctx: AppContext): NodeFastPath {
  return (req, res) => {
    const capability = routedCapability(ctx, req.method, req.url, req.headers['x-svc-token']);
    if (capability === null) return false;
    const call = new NodeCall(req, res, ctx.config.maxBodyBytes);
    // answerRoutedCall never rejects: errors come back as their answer
    void answerRoutedCall(ctx, capability, call).then((a) => call.write(a));
    return true;
  };
}

/** A call as svc's front read it (runtime/front/): its headers, and its body whole. */
class FrontCall implements RoutedRequest, HeaderReader {
  constructor(private req: SimpleRequest) {}

  get headers(): HeaderReader {
    return this;
  }

  get(name: string): string | null {
    return this.req.headers[name] ?? null;
  }

  keys(): Iterable<string> {
    return Object.keys(this.req.headers);
  }

  sessionCookie(): null {
    return null;
  }

  readBody(): Promise<unknown> {
    return new Promise((resolve) => resolve(parseJsonText(this.req.body))); // a throw is the rejection
  }
}

/** The same calls, read by svc's front, through the same handler. */
export function frontRouted(ctx: AppContext): FrontTaker {
  return (req, reply) => {
    const capability = routedCapability(ctx, req.method, req.target, req.headers['x-svc-token']);
    if (capability === null) return false;
    void answerRoutedCall(ctx, capability, new FrontCall(req)).then(reply);
    return true;
  };
}
