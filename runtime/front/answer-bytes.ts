// An answer as the bytes svc's front writes: status line, the answer's headers, the length, and the
// headers Node's server adds (Date, Connection, Keep-Alive), then the body; one write.
import { STATUS_CODES } from 'node:http';
import type { PlainAnswer } from '../errors.ts';
import { HEADER_VALUE, TOKEN } from '../provider-client/request-bytes.ts';

const ASCII = /^[\x20-\x7e]*$/;

/** (Node writes the date of the second too, and reads the clock as seldom) */
let dateSecond = -1;
let dateText = '';
function httpDate(): string {
  const now = Date.now();
  const second = Math.floor(now / 1000);
  if (second !== dateSecond) {
    dateSecond = second;
    dateText = new Date(now).toUTCString();
  }
  return dateText;
}

/**
 * `keepAliveS`: the idle time the connection is kept, said as Node says it; null when the connection
 * closes after this answer. Throws for a header no answer may carry (a line end in a value).
 */
export function answerBytes(a: PlainAnswer, keepAliveS: number | null): string | Buffer {
  let head = `HTTP/1.1 ${a.status} ${STATUS_CODES[a.status] ?? ''}\r\n`;
  let latin1 = false;
  for (const name in a.headers) {
    const value = a.headers[name];
    if (!TOKEN.test(name) || !HEADER_VALUE.test(value)) throw new TypeError(`an answer header no HTTP answer can carry: ${JSON.stringify(name.slice(0, 40))}`);
    if (name === 'content-length') continue;
    if (!latin1 && !ASCII.test(value)) latin1 = true;
    head += `${name}: ${value}\r\n`;
  }
  const bodyBytes = Buffer.byteLength(a.text);
  head += `content-length: ${bodyBytes}\r\nDate: ${httpDate()}\r\n${keepAliveS === null ? 'Connection: close' : `Connection: keep-alive\r\nKeep-Alive: timeout=${keepAliveS}`}\r\n\r\n`;
  if (!latin1) return head + a.text;
  const out = Buffer.allocUnsafe(head.length + bodyBytes);
  out.write(head, 0, 'latin1');
  out.write(a.text, head.length, 'utf8');
  return out;
}
