// A request's bytes: exactly one request on the wire, whatever a field placed in it holds.
import { describe, expect, it } from 'vitest';
import { BadRequest, requestBytes, USER_AGENT, type ClientRequest } from '../../runtime/provider-client/request-bytes.ts';

const req = (over: Partial<ClientRequest>): ClientRequest => ({ method: 'GET', origin: 'https://api.example.com', path: '/v1/find?q=a', headers: {}, body: null, ...over });
const text = (bytes: string | Buffer) => (typeof bytes === 'string' ? bytes : bytes.toString('latin1'));

describe('request bytes', () => {
  it('writes the request line, the Host, the caller\'s headers and a user agent', () => {
    expect(text(requestBytes(req({ headers: { accept: 'application/json', 'X-Api-Key': 'k1' } }), 'api.example.com'))).toBe(
      `GET /v1/find?q=a HTTP/1.1\r\nhost: api.example.com\r\naccept: application/json\r\nX-Api-Key: k1\r\nuser-agent: ${USER_AGENT}\r\n\r\n`,
    );
  });

  it('counts the body in bytes, not characters, and sends a length with every POST', () => {
    const post = text(requestBytes(req({ method: 'POST', body: '{"name":"Zoë"}', headers: { 'content-type': 'application/json' } }), 'h'));
    expect(post).toMatch(/\r\ncontent-length: 15\r\n\r\n\{"name":"Zo/);
    expect(text(requestBytes(req({ method: 'POST' }), 'h'))).toMatch(/\r\ncontent-length: 0\r\n\r\n$/);
    expect(text(requestBytes(req({}), 'h'))).not.toMatch(/content-length/);
  });

  it('keeps its own framing headers over a caller\'s, and a caller\'s user agent over its own', () => {
    const bytes = text(requestBytes(req({ method: 'POST', body: 'ab', headers: { Host: 'evil.example', 'Content-Length': '99', Connection: 'close', 'User-Agent': 'mine' } }), 'api.example.com'));
    expect(bytes).toBe('POST /v1/find?q=a HTTP/1.1\r\nhost: api.example.com\r\nUser-Agent: mine\r\ncontent-length: 2\r\n\r\nab');
  });

  it('sends a header value past ASCII as Latin-1 bytes, and the body still as UTF-8', () => {
    const bytes = requestBytes(req({ method: 'POST', headers: { 'x-name': 'Zoë' }, body: 'é' }), 'h');
    expect(Buffer.isBuffer(bytes)).toBe(true);
    const raw = bytes as Buffer;
    expect(raw.includes(Buffer.from([0x5a, 0x6f, 0xeb]))).toBe(true); // Zoë, one byte for ë
    expect(raw.subarray(raw.length - 2)).toEqual(Buffer.from('é', 'utf8'));
    expect(text(raw)).toMatch(/content-length: 2\r\n\r\n/);
  });

  it('refuses anything that would end a line early or not be one request', () => {
    const refused = (over: Partial<ClientRequest>) => () => requestBytes(req(over), 'h');
    expect(refused({ headers: { 'x-key': 'a\r\nX-Injected: 1' } })).toThrow(BadRequest);
    expect(refused({ headers: { 'x-key': 'a\nb' } })).toThrow(BadRequest);
    expect(refused({ headers: { 'x-key': 'emoji 🙂' } })).toThrow(BadRequest);
    expect(refused({ headers: { 'bad name': 'a' } })).toThrow(BadRequest);
    expect(refused({ path: '/a b' })).toThrow(BadRequest);
    expect(refused({ path: '/a\r\nHost: x' })).toThrow(BadRequest);
    expect(refused({ path: 'http://elsewhere/' })).toThrow(BadRequest);
    expect(refused({ method: 'GET /x HTTP/1.1\r\n' })).toThrow(BadRequest);
  });
});
