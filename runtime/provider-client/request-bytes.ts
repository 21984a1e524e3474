// A request as the bytes that go on the wire: request line, headers, body. Everything in it is
// checked first, so no value (a caller's field placed in a header or the path) can end a line early
// and smuggle a header or a second request onto a kept-alive connection.

/** What the client sends; the router's OutgoingRequest is one. */
export interface ClientRequest {
  readonly method: string;
  /** scheme, host and port */
  readonly origin: string;
  /** path and query, as sent */
  readonly path: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string | null;
}

/** A request the client refuses to send; the exchange reports it as a failure before anything left. */
export class BadRequest extends Error {}

const METHOD = /^[A-Z]{1,16}$/;
/** a header name (also what svc's front accepts of a caller's) */
export const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/** a header value: visible characters, spaces and tabs, no line ends; past ASCII, Latin-1 (below) */
const ASCII_VALUE = /^[\t\x20-\x7e]*$/;
export const HEADER_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;
/** a request target: visible ASCII only (anything else is percent-encoded by whoever made the path) */
const TARGET = /^\/[\x21-\x7e]*$/;
/** the headers the client writes itself from the request: a caller's would contradict them */
const OWN = new Set(['host', 'content-length', 'transfer-encoding', 'connection']);
/** methods whose requests carry a length even when empty (a server may refuse one without) */
const WITH_BODY = new Set(['POST', 'PUT', 'PATCH']);

export const USER_AGENT = 'svc';

/**
 * The request's bytes, head and body together (one write, one packet for a small request): a string
 * written as UTF-8 when the head is ASCII, as it nearly always is, else a buffer with the head in
 * Latin-1. `host`: the Host header for the origin. Throws BadRequest for anything that would not be
 * one request.
 */
export function requestBytes(req: ClientRequest, host: string): string | Buffer {
  if (!METHOD.test(req.method)) throw new BadRequest(`not a method: ${JSON.stringify(req.method.slice(0, 20))}`);
  if (!TARGET.test(req.path)) throw new BadRequest('the path holds a character a request line cannot carry');
  let head = `${req.method} ${req.path} HTTP/1.1\r\nhost: ${host}\r\n`;
  let agent = false;
  let latin1 = false;
  for (const name in req.headers) {
    const value = req.headers[name];
    if (!TOKEN.test(name)) throw new BadRequest(`not a header name: ${JSON.stringify(name.slice(0, 40))}`);
    if (!ASCII_VALUE.test(value)) {
      if (!HEADER_VALUE.test(value)) throw new BadRequest(`the ${name} header holds a line end or a character past Latin-1`);
      latin1 = true;
    }
    const lower = name.toLowerCase();
    if (OWN.has(lower)) continue;
    if (lower === 'user-agent') agent = true;
    head += `${name}: ${value}\r\n`;
  }
  if (!agent) head += `user-agent: ${USER_AGENT}\r\n`;
  const body = req.body;
  const bodyBytes = body === null ? 0 : Buffer.byteLength(body);
  head += body !== null || WITH_BODY.has(req.method) ? `content-length: ${bodyBytes}\r\n\r\n` : '\r\n';
  if (!latin1) return body === null ? head : head + body;
  const out = Buffer.allocUnsafe(head.length + bodyBytes);
  out.write(head, 0, 'latin1');
  if (body !== null) out.write(body, head.length, 'utf8');
  return out;
}
