// The one kind of request svc's front reads itself: HTTP/1.1, whole in what has arrived, its body
// framed by one Content-Length, every header well formed and named once, nothing asking for more
// than a request and its answer (no Expect, Upgrade, Transfer-Encoding or Connection other than
// keep-alive). Anything else is null here, and the connection goes to Node's HTTP server as it is.
import { HEADER_VALUE, TOKEN } from '../provider-client/request-bytes.ts';

export interface SimpleRequest {
  method: string;
  /** the request target as sent */
  target: string;
  /** lower-case names, each once; values as Node gives them (Latin-1, outer whitespace cut) */
  headers: Record<string, string>;
  body: string;
  /** the offset just past the request in the buffer read */
  end: number;
}

export interface SimpleLimits {
  /** the most bytes a head may take (Node's maxHeaderSize) */
  headBytes: number;
  /** the largest body read here (SVC_MAX_BODY_BYTES): a larger one is Node's to refuse */
  bodyBytes: number;
}

const HEAD_END = Buffer.from('\r\n\r\n');
/** what HTTP calls optional whitespace around a value: spaces and tabs only (trim() would cut more) */
const OUTER_WHITESPACE = /^[ \t]+|[ \t]+$/g;
const REQUEST_LINE = /^([A-Z]{1,16}) (\/[\x21-\x7e]*) HTTP\/1\.1$/;
/** headers whose presence asks for what only Node's server does */
const NODE_ONLY = new Set(['transfer-encoding', 'expect', 'upgrade', 'te', 'trailer', 'http2-settings']);

/** The request at the start of `buf`, when it is a simple one and all there; else null. */
export function simpleRequest(buf: Buffer, limits: SimpleLimits): SimpleRequest | null {
  const headEnd = buf.indexOf(HEAD_END);
  if (headEnd < 0 || headEnd > limits.headBytes) return null;
  const lines = buf.toString('latin1', 0, headEnd).split('\r\n');
  const line = REQUEST_LINE.exec(lines[0]);
  if (!line) return null;
  const headers: Record<string, string> = Object.create(null) as Record<string, string>;
  for (let i = 1; i < lines.length; i++) {
    const l = lines[i];
    const colon = l.indexOf(':');
    if (colon <= 0) return null;
    const name = l.slice(0, colon).toLowerCase();
    const value = l.slice(colon + 1).replace(OUTER_WHITESPACE, '');
    if (!TOKEN.test(name) || !HEADER_VALUE.test(value) || name in headers || NODE_ONLY.has(name)) return null;
    headers[name] = value;
  }
  if (headers.host === undefined) return null;
  const connection = headers.connection;
  if (connection !== undefined && connection.toLowerCase() !== 'keep-alive') return null;
  const length = headers['content-length'];
  const bytes = length === undefined ? 0 : /^\d{1,10}$/.test(length) ? Number(length) : -1;
  if (bytes < 0 || bytes > limits.bodyBytes) return null;
  const end = headEnd + HEAD_END.length + bytes;
  if (end > buf.length) return null;
  return { method: line[1], target: line[2], headers, body: buf.toString('utf8', headEnd + HEAD_END.length, end), end };
}
