// Reading a JSON request body at the edge: over the size limit → 413, not JSON → 400.
import type { H3Event } from 'h3';
import type { IncomingMessage } from 'node:http';
import { fail, StatusError } from '../util/fail.ts';

/**
 * On Node, read the raw request: no web stream in between. Past the limit it stops keeping data but
 * drains the rest instead of destroying the request: a destroyed socket under a response still being
 * written takes the server's connection tracking down with it. `as` reads the whole text (a throw is
 * the rejection) inside the same promise: a routed call's body is one promise, not two.
 */
export function readNode<T>(req: IncomingMessage, maxBytes: number, as: (text: string) => T): Promise<T> {
  const whole = bufferedBody(req, maxBytes);
  if (whole) {
    req.resume(); // the stream still ends and is cleaned up as when read by events
    return new Promise((resolve) => resolve(as(whole.toString('utf8')))); // a throw is the rejection
  }
  // (Listeners as unnamed arguments: tsx names every named closure as it is made, per request.)
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req
      .on('data', (chunk: Buffer) => {
        if (size > maxBytes) return; // refused already: the rest flows past unkept
        size += chunk.length;
        if (size <= maxBytes) chunks.push(chunk);
        else
          try {
            tooLarge(maxBytes);
          } catch (e) {
            reject(e);
          }
      })
      .on('end', () => {
        if (size > maxBytes) return;
        try {
          resolve(as(chunks.length === 1 ? chunks[0].toString('utf8') : Buffer.concat(chunks).toString('utf8')));
        } catch (e) {
          reject(e);
        }
      })
      .on('error', reject);
  });
}

/**
 * The whole body when it has all arrived and nothing has read it yet, as a small body sent with its
 * headers has by the time a handler asks: taken at once, it spares the stream's events and the two
 * turns before its end (about 10 µs of a routed call on one connection, bench/README.md). Null
 * otherwise: the body is read as it comes.
 */
function bufferedBody(req: IncomingMessage, maxBytes: number): Buffer | null {
  const length = Number(req.headers['content-length']);
  if (!(length > 0) || length > maxBytes || req.readableLength !== length || req.readableFlowing !== null) return null;
  return req.read() as Buffer | null;
}

/** The parsed body of a Node request (undefined when empty), read within `maxBytes` (SVC_MAX_BODY_BYTES, default 64 KiB). */
export function readJsonNode(req: IncomingMessage, maxBytes: number): Promise<unknown> {
  // (Not async: one promise per call fewer; a refusal is still a rejection.)
  if (Number(req.headers['content-length']) > maxBytes) return Promise.reject(new StatusError(413, tooLargeSentence(maxBytes)));
  return readNode(req, maxBytes, parseJsonText);
}

/** readJsonNode for an h3 event; a web request (app.fetch) is measured once it is whole. */
export async function readJson(event: H3Event, maxBytes: number): Promise<unknown> {
  // Not h3's assertBodySize: it opens the request's web stream, which then holds the Node stream
  // paused after its first 16 KiB, and the read below never ends.
  const node = (event.req as { runtime?: { node?: { req?: IncomingMessage } } }).runtime?.node?.req;
  if (node) return readJsonNode(node, maxBytes);
  if (Number(event.req.headers.get('content-length')) > maxBytes) tooLarge(maxBytes);
  const text = await event.req.text();
  if (Buffer.byteLength(text) > maxBytes) tooLarge(maxBytes);
  return parseJsonText(text);
}

const tooLargeSentence = (maxBytes: number) => `Request body too large: the limit is ${maxBytes} bytes.`;
const tooLarge = (maxBytes: number): never => fail(413, tooLargeSentence(maxBytes));

/**
 * undefined for an empty body; 400 with the parser's reason for anything that is not JSON. A leading
 * UTF-8 byte order mark (a file saved by many Windows editors) is skipped, as RFC 8259 allows and as
 * a batch line's is: JSON.parse would refuse it with an "unexpected token" the caller cannot see.
 */
function parseJsonText(text: string): unknown {
  if (!/\S/.test(text)) return undefined;
  try {
    return JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text) as unknown;
  } catch (e) {
    return fail(400, `The request body is not valid JSON (${(e as Error).message.replace(/\s+/g, ' ').slice(0, 120)}).`);
  }
}
