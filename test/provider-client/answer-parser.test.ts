// The answer parser on its own: every framing, fed whole and split at every byte, reads the same
// answer; what cannot be one answer is refused rather than guessed at.
import { describe, expect, it } from 'vitest';
import { AnswerParser, MAX_HEAD_BYTES, type AnswerSink } from '../../runtime/provider-client/answer-parser.ts';

interface Heard {
  status: number | null;
  body: string;
  done: { reusable: boolean; keepAliveMs: number | null } | null;
  broken: string | null;
  events: number;
}

/** a sink that writes down what it hears; `stopAfter`: refuse the body once it holds this many bytes */
function listener(stopAfter = Infinity): { sink: AnswerSink; heard: Heard } {
  const heard: Heard = { status: null, body: '', done: null, broken: null, events: 0 };
  const sink: AnswerSink = {
    head(status) { heard.events++; heard.status = status; },
    body(piece) { heard.events++; heard.body += piece.toString('latin1'); return heard.body.length < stopAfter; },
    done(reusable, keepAliveMs) { heard.events++; heard.done = { reusable, keepAliveMs }; },
    broken(reason) { heard.events++; heard.broken = reason; },
  };
  return { sink, heard };
}

/** parse `text` as the answer to one request, fed in pieces cut at `cuts` (byte offsets) */
function parse(text: string, opts: { method?: string; cuts?: number[]; close?: boolean } = {}): Heard {
  const { sink, heard } = listener();
  const parser = new AnswerParser();
  parser.expect(opts.method ?? 'GET', sink);
  const bytes = Buffer.from(text, 'latin1');
  let at = 0;
  for (const cut of [...(opts.cuts ?? []), bytes.length]) {
    if (cut > at) parser.feed(Buffer.from(bytes.subarray(at, cut)));
    at = Math.max(at, cut);
  }
  if (opts.close) parser.closed();
  return heard;
}

/** what was heard, less how many pieces the body came in */
const answerOf = ({ events, ...answer }: Heard) => (void events, answer);

/** the same answer read whole, in two pieces cut at every byte, and a byte at a time */
function everySplit(text: string, opts: { method?: string; close?: boolean } = {}): Heard {
  const whole = parse(text, opts);
  for (let cut = 1; cut < text.length; cut++) expect(answerOf(parse(text, { ...opts, cuts: [cut] })), `cut at ${cut}`).toEqual(answerOf(whole));
  expect(answerOf(parse(text, { ...opts, cuts: [...text].map((_, i) => i) }))).toEqual(answerOf(whole));
  return whole;
}

describe('answer parser', () => {
  it('reads a body framed by Content-Length, however it is split, and keeps the connection', () => {
    const heard = everySplit('HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 11\r\n\r\n{"ok":true}');
    expect(heard).toMatchObject({ status: 200, body: '{"ok":true}', done: { reusable: true, keepAliveMs: null }, broken: null });
  });

  it('reads chunks with extensions and trailers, however they are split', () => {
    const heard = everySplit('HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n4;name=x\r\n{"a"\r\n7\r\n:"Zo\xeb"}\r\n0\r\nX-Trailer: 1\r\n\r\n');
    expect(heard).toMatchObject({ status: 200, body: '{"a":"Zo\xeb"}', done: { reusable: true } });
  });

  it('reads a body without a length to the connection\'s end, and then drops the connection', () => {
    const heard = everySplit('HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\r\nall of it', { close: true });
    expect(heard).toMatchObject({ status: 200, body: 'all of it', done: { reusable: false } });
  });

  it('keeps a connection as HTTP/1.1 and HTTP/1.0 say, with the server\'s keep-alive time', () => {
    expect(parse('HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 0\r\n\r\n').done).toEqual({ reusable: false, keepAliveMs: null });
    expect(parse('HTTP/1.0 200 OK\r\nContent-Length: 0\r\n\r\n').done?.reusable).toBe(false);
    expect(parse('HTTP/1.0 200 OK\r\nConnection: Keep-Alive\r\nContent-Length: 0\r\n\r\n').done?.reusable).toBe(true);
    expect(parse('HTTP/1.1 200 OK\r\nKeep-Alive: timeout=5, max=100\r\nContent-Length: 0\r\n\r\n').done).toEqual({ reusable: true, keepAliveMs: 5000 });
  });

  it('passes over interim answers to the real one, and reads no body where there can be none', () => {
    const heard = everySplit('HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 103 Early Hints\r\nLink: </a>\r\n\r\nHTTP/1.1 201 Created\r\nContent-Length: 2\r\n\r\n{}');
    expect(heard).toMatchObject({ status: 201, body: '{}', events: 3 });
    expect(parse('HTTP/1.1 204 No Content\r\nContent-Length: 5\r\n\r\n')).toMatchObject({ status: 204, body: '', done: { reusable: true } });
    expect(parse('HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\n', { method: 'HEAD' })).toMatchObject({ status: 200, body: '', done: { reusable: true } });
    expect(parse('HTTP/1.1 200\r\nContent-Length: 0\r\n\r\n')).toMatchObject({ status: 200, done: { reusable: true } }); // no reason phrase
  });

  it('takes the chunked framing over a Content-Length beside it, and then drops the connection', () => {
    const heard = parse('HTTP/1.1 200 OK\r\nContent-Length: 99\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nab\r\n0\r\n\r\n');
    expect(heard).toMatchObject({ body: 'ab', done: { reusable: false } });
  });

  it('does not keep a connection that sent bytes past the answer', () => {
    expect(parse('HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n{}HTTP/1.1 200 OK\r\n').done).toEqual({ reusable: false, keepAliveMs: null });
  });

  it('refuses what is not one answer', () => {
    const refused = (text: string, close = false) => parse(text, { close }).broken;
    expect(refused('HTP/1.1 200 OK\r\n\r\n')).toMatch(/status line/);
    expect(refused('HTTP/2 200 OK\r\n\r\n')).toMatch(/status line/);
    expect(refused('HTTP/1.1 99 OK\r\n\r\n')).toMatch(/status line/);
    expect(refused('HTTP/1.1 200 OK\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n{}')).toMatch(/Content-Length/);
    expect(refused('HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\n')).toMatch(/Content-Length/);
    expect(refused('HTTP/1.1 200 OK\r\nContent-Length : 2\r\n\r\n{}')).toMatch(/malformed header/);
    expect(refused('HTTP/1.1 200 OK\r\nX-A: 1\r\n folded\r\n\r\n')).toMatch(/malformed header/);
    expect(refused('HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n')).toMatch(/hexadecimal/);
    expect(refused('HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nabc\r\n0\r\n\r\n')).toMatch(/longer than its size/);
    expect(refused('HTTP/1.1 101 Switching Protocols\r\n\r\n')).toMatch(/switched protocols/);
    expect(refused(`HTTP/1.1 200 OK\r\nX-Big: ${'a'.repeat(MAX_HEAD_BYTES)}`)).toMatch(/too large/);
    expect(refused('HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nshort', true)).toMatch(/closed before/);
  });

  it('stops at a body piece the sink refuses, and tells it nothing more', () => {
    const { sink, heard } = listener(3);
    const parser = new AnswerParser();
    parser.expect('GET', sink);
    parser.feed(Buffer.from('HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n3\r\ndef\r\n0\r\n\r\n'));
    parser.closed();
    expect(heard).toMatchObject({ body: 'abc', done: null, broken: null, events: 2 });
    expect(parser.reading).toBe(false);
  });

  it('reads answer after answer on one connection', () => {
    const { sink, heard } = listener();
    const parser = new AnswerParser();
    for (const body of ['one', 'second']) {
      heard.body = '';
      parser.expect('GET', sink);
      parser.feed(Buffer.from(`HTTP/1.1 200 OK\r\nContent-Length: ${body.length}\r\n\r\n${body}`));
      expect([heard.body, heard.done?.reusable]).toEqual([body, true]);
    }
  });
});
