// Requests Node's server reads but svc refuses, and the ones Node's parser cannot read at all
// (its `clientError`): each answered with a JSON sentence, as every other refusal, then closed.
import { IncomingMessage, maxHeaderSize, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';

const LIMIT = `${maxHeaderSize} bytes`;
const TOO_LONG_URL = `The request URL is longer than svc reads (${LIMIT} for the request line and headers together); send large inputs in a POST body.`;
const TOO_LARGE_HEAD = `The request line and headers together are larger than svc reads (${LIMIT}); send fewer or shorter headers.`;
const BAD_VERSION = 'svc speaks HTTP versions 1.0 and 1.1 only; end the request line with one of them.';
const MALFORMED = 'The request is not well-formed HTTP (its request line, a header or the body framing), so svc did not read it.';
const TIMED_OUT = 'The request did not arrive whole in time, so svc stopped waiting for it.';

function write(res: ServerResponse, status: number, detail: string): void {
  const text = JSON.stringify({ detail });
  res.shouldKeepAlive = false;
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), connection: 'close' });
  res.end(text);
}

/**
 * A request Node read in a version svc does not speak: llhttp takes `GET /meta HTTP/0.9`, and a
 * request line with no version, as HTTP/0.9, and passes HTTP/2.0 or 3.0 on. Answers whether it refused.
 */
export function refuseVersion(req: IncomingMessage, res: ServerResponse): boolean {
  if (req.httpVersionMajor === 1) return false;
  write(res, 505, BAD_VERSION);
  return true;
}

interface ParseError extends Error {
  code?: string;
  rawPacket?: Buffer;
}

/**
 * A head past maxHeaderSize: a 414 when the read that overflowed holds a request line still without
 * its end (the URL alone is too long), else a 431.
 */
function overflowStatus(e: ParseError): number {
  const p = e.rawPacket;
  if (!p || !/^[A-Z]+ \S/.test(p.toString('latin1', 0, 32))) return 431;
  const eol = p.indexOf('\r\n');
  return eol < 0 || eol > maxHeaderSize ? 414 : 431;
}

/**
 * Node's server's `clientError`: what its parser refused, answered as JSON through a ServerResponse
 * of its own (Node writes the status line), then the connection closed. A socket already closing or
 * in the middle of an answer is just destroyed.
 */
export function answerClientError(e: ParseError, socket: Duplex): void {
  if (e.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  const req = new IncomingMessage(socket as ConstructorParameters<typeof IncomingMessage>[0]);
  req.httpVersionMajor = 1;
  req.httpVersionMinor = 1;
  const res = new ServerResponse(req);
  try {
    res.assignSocket(socket as Parameters<ServerResponse['assignSocket']>[0]);
  } catch {
    socket.destroy(); // an answer is already being written on it
    return;
  }
  res.on('finish', () => socket.end());
  if (e.code === 'HPE_HEADER_OVERFLOW') {
    const status = overflowStatus(e);
    write(res, status, status === 414 ? TOO_LONG_URL : TOO_LARGE_HEAD);
  } else if (e.code === 'ERR_HTTP_REQUEST_TIMEOUT') write(res, 408, TIMED_OUT);
  else write(res, 400, MALFORMED);
}
