// An HTTP/1.1 answer read from the bytes as they come (RFC 9112): the status line and headers, then
// the body framed by Content-Length, by chunks, or by the connection's end. Pure: it is fed buffers
// and tells a sink what it found, so every way an answer can be split over reads is testable without
// a socket. Only what framing and reuse need is read of the headers; svc reads no other.
//
// Strict where a lenient reading could take one answer for another on a kept-alive connection: CRLF
// line ends, no folded header lines, one Content-Length, hexadecimal chunk sizes.

/** What the parser finds, in order: one head (the final status), body pieces, then `done` or `broken`. */
export interface AnswerSink {
  head(status: number): void;
  /** a piece of the body, a view of the buffer fed (valid as long as that buffer); false stops the read */
  body(piece: Buffer): boolean;
  /** the answer is whole; `reusable`: the connection may carry another request (`keepAliveMs`: for how long, if the server said) */
  done(reusable: boolean, keepAliveMs: number | null): void;
  /** the bytes are not an answer; nothing more comes of them */
  broken(reason: string): void;
}

/** the longest status line and headers read (llhttp's and Node's default, as undici's was) */
export const MAX_HEAD_BYTES = 16 * 1024;
/** the longest chunk-size or trailer line read */
const MAX_LINE_BYTES = 4 * 1024;
const HEAD_END = Buffer.from('\r\n\r\n');
const CRLF = Buffer.from('\r\n');

const HEAD = 0;
const LENGTH = 1;
const CHUNK_SIZE = 2;
const CHUNK_DATA = 3;
const CHUNK_END = 4;
const TRAILERS = 5;
const UNTIL_CLOSE = 6;
const DONE = 7;

const HEX = /^[0-9a-fA-F]{1,12}$/;
const DIGITS = /^\d{1,15}$/;

export class AnswerParser {
  private step = DONE;
  private sink: AnswerSink | null = null;
  /** the bytes of an unfinished head or line, read again with the next buffer */
  private held: Buffer | null = null;
  /** body bytes left: of the whole body (LENGTH) or of the current chunk (CHUNK_DATA) */
  private left = 0;
  private reusable = true;
  private keepAliveMs: number | null = null;
  private bodiless = false;

  /** The next answer belongs to a request of `method` (a HEAD's has no body), and is told to `sink`. */
  expect(method: string, sink: AnswerSink): void {
    this.step = HEAD;
    this.sink = sink;
    this.held = null;
    this.reusable = true;
    this.keepAliveMs = null;
    this.bodiless = method === 'HEAD';
  }

  /** whether an answer is being read (between expect and its done or broken) */
  get reading(): boolean {
    return this.sink !== null;
  }

  feed(chunk: Buffer): void {
    let buf = chunk;
    if (this.held) {
      buf = Buffer.concat([this.held, chunk]);
      this.held = null;
    }
    let at = 0;
    while (at < buf.length && this.sink) {
      switch (this.step) {
        case HEAD: at = this.readHead(buf, at); break;
        case LENGTH: at = this.readBody(buf, at, LENGTH); break;
        case CHUNK_DATA: at = this.readBody(buf, at, CHUNK_DATA); break;
        case UNTIL_CLOSE: at = this.readBody(buf, at, UNTIL_CLOSE); break;
        default: at = this.readLine(buf, at);
      }
    }
  }

  /** Stop reading the answer, telling the sink nothing more (the connection failed under it). */
  abandon(): void {
    this.stop();
  }

  /** The server closed the connection: the end of an answer framed by it, else an answer cut short. */
  closed(): void {
    if (!this.sink) return;
    if (this.step === UNTIL_CLOSE) this.finish(false);
    else this.fail('the connection closed before the answer ended');
  }

  private readHead(buf: Buffer, at: number): number {
    const end = buf.indexOf(HEAD_END, at);
    if (end < 0) return this.hold(buf, at, MAX_HEAD_BYTES, 'the answer\'s headers are too large');
    if (end - at > MAX_HEAD_BYTES) return this.fail('the answer\'s headers are too large');
    const lines = buf.toString('latin1', at, end).split('\r\n');
    const status = statusOf(lines[0]);
    if (status === 0) return this.fail(`not an HTTP/1.x status line: ${JSON.stringify(lines[0].slice(0, 40))}`);
    const next = end + 4;
    if (status < 200) {
      // 100 Continue, 103 Early Hints: interim answers before the real one; 101 would leave HTTP
      return status === 101 ? this.fail('the server switched protocols') : next;
    }
    const framing = this.readHeaders(lines, lines[0].charCodeAt(7) === 0x30);
    if (framing === null) return Number.MAX_SAFE_INTEGER; // failed already
    this.sink!.head(status);
    if (this.bodiless || status === 204 || status === 304) return this.finish(true, buf, next);
    if (framing === 'chunked') this.step = CHUNK_SIZE;
    else if (framing >= 0) {
      if (framing === 0) return this.finish(true, buf, next);
      this.step = LENGTH;
      this.left = framing;
    } else {
      this.step = UNTIL_CLOSE;
      this.reusable = false;
    }
    return next;
  }

  /**
   * The framing the headers give (a length, 'chunked', or -1: until the connection closes), and
   * whether the connection may be kept; null, with the parser failed, when they contradict themselves.
   */
  private readHeaders(lines: string[], http10: boolean): number | 'chunked' | null {
    let length: string | null = null;
    let coding: string | null = null;
    let keepAlive = false;
    for (let i = 1; i < lines.length; i++) {
      const line = lines[i];
      const colon = line.indexOf(':');
      // no name, a folded line, or white space before the colon
      if (colon <= 0 || line.charCodeAt(0) <= 0x20 || line.charCodeAt(colon - 1) <= 0x20) return this.failed(`a malformed header line: ${JSON.stringify(line.slice(0, 40))}`);
      // only these four names matter here; their lengths let every other header pass unlowered
      if (colon !== 14 && colon !== 17 && colon !== 10) continue;
      const name = line.slice(0, colon).toLowerCase();
      const value = line.slice(colon + 1).trim();
      if (name === 'content-length') {
        for (const v of value.split(',')) {
          const n = v.trim();
          if (!DIGITS.test(n) || (length !== null && length !== n)) return this.failed('a Content-Length that is not one number');
          length = n;
        }
      } else if (name === 'transfer-encoding') coding = coding === null ? value : `${coding}, ${value}`;
      else if (name === 'connection') {
        for (const t of value.toLowerCase().split(',')) {
          const token = t.trim();
          if (token === 'close') this.reusable = false;
          else if (token === 'keep-alive') keepAlive = true;
        }
      } else if (name === 'keep-alive') {
        const s = /(?:^|[\s,])timeout=(\d{1,6})/i.exec(value);
        if (s) this.keepAliveMs = Number(s[1]) * 1000;
      }
    }
    if (http10 && !keepAlive) this.reusable = false;
    if (coding !== null) {
      // a body framed by its codings: chunked when that is the last one, else it runs to the close
      if (length !== null) this.reusable = false;
      return coding.toLowerCase().split(',').pop()!.trim() === 'chunked' ? 'chunked' : -1;
    }
    return length === null ? -1 : Number(length);
  }

  private readBody(buf: Buffer, at: number, step: number): number {
    const take = step === UNTIL_CLOSE ? buf.length - at : Math.min(this.left, buf.length - at);
    this.left -= take;
    const to = at + take;
    // a piece the sink refuses ends the read: the connection goes, the answer with it
    if (!this.sink!.body(at === 0 && to === buf.length ? buf : buf.subarray(at, to))) return this.stop();
    if (this.left > 0 || step === UNTIL_CLOSE) return to;
    if (step === LENGTH) return this.finish(true, buf, to);
    this.step = CHUNK_END;
    return to;
  }

  /** the lines between chunks: a chunk's size, the empty line after its data, and the trailers */
  private readLine(buf: Buffer, at: number): number {
    const end = buf.indexOf(CRLF, at);
    if (end < 0) return this.hold(buf, at, MAX_LINE_BYTES, 'a chunk line is too long');
    const next = end + 2;
    if (this.step === CHUNK_END) {
      if (end !== at) return this.fail('a chunk is longer than its size says');
      this.step = CHUNK_SIZE;
      return next;
    }
    if (this.step === TRAILERS) return end === at ? this.finish(true, buf, next) : next;
    let sizeEnd = at; // chunk extensions follow a ';' and are ignored
    while (sizeEnd < end && buf[sizeEnd] !== 0x3b) sizeEnd++;
    const size = buf.toString('latin1', at, sizeEnd).trim();
    if (!HEX.test(size)) return this.fail(`a chunk size that is not hexadecimal: ${JSON.stringify(size.slice(0, 20))}`);
    this.left = Number.parseInt(size, 16);
    this.step = this.left === 0 ? TRAILERS : CHUNK_DATA;
    return next;
  }

  /** Keep the unread rest for the next buffer; past `max` bytes the answer is refused. */
  private hold(buf: Buffer, at: number, max: number, tooLong: string): number {
    if (buf.length - at > max) return this.fail(tooLong);
    this.held = at === 0 ? buf : buf.subarray(at);
    return buf.length;
  }

  /** The answer is whole. Bytes after it that no request asked for make the connection unfit to keep. */
  private finish(reusable: boolean, buf?: Buffer, at = 0): number {
    const sink = this.sink!;
    const extra = buf !== undefined && at < buf.length;
    this.step = DONE;
    this.sink = null;
    sink.done(reusable && this.reusable && !extra, this.keepAliveMs);
    return Number.MAX_SAFE_INTEGER;
  }

  private fail(reason: string): number {
    const sink = this.sink!;
    this.stop();
    sink.broken(reason);
    return Number.MAX_SAFE_INTEGER;
  }

  /** fail, for readHeaders' callers: null is the framing of a failed head */
  private failed(reason: string): null {
    this.fail(reason);
    return null;
  }

  private stop(): number {
    this.step = DONE;
    this.sink = null;
    this.held = null;
    return Number.MAX_SAFE_INTEGER;
  }
}

/** The status of an `HTTP/1.0` or `HTTP/1.1` status line (the reason phrase may be empty or absent); 0 for anything else. */
function statusOf(line: string): number {
  if (!line.startsWith('HTTP/1.') || (line.charCodeAt(7) !== 0x30 && line.charCodeAt(7) !== 0x31) || line.charCodeAt(8) !== 0x20) return 0;
  if (line.length > 12 && line.charCodeAt(12) !== 0x20) return 0;
  const digits = line.slice(9, 12);
  return /^[1-5]\d\d$/.test(digits) ? Number(digits) : 0;
}
