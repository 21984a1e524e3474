// Reading a JSON request body at the edge: over the size limit → 413, not JSON → 400.
import { assertBodySize, type H3Event } from 'h3';
import { fail } from './errors.ts';

/** The parsed body (undefined when empty), read within `maxBytes` (SVC_MAX_BODY_BYTES, default 64 KiB). */
export async function readJson(event: H3Event, maxBytes: number): Promise<unknown> {
  assertBodySize(event, maxBytes);
  const text = await event.req.text();
  if (Buffer.byteLength(text) > maxBytes) fail(413, `Request body too large: the limit is ${maxBytes} bytes.`);
  if (!text.trim()) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch (e) {
    return fail(400, `The request body is not valid JSON (${(e as Error).message.replace(/\s+/g, ' ').slice(0, 120)}).`);
  }
}
