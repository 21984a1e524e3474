// Reading a JSON body from Node's request (runtime/http/body.ts), over real sockets: a body that came with
// its headers is taken at once, one that comes later is read as it arrives, and both answer the same,
// refusals included; the request still ends, and the connection carries the next request.
import { createServer, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readJsonNode } from '../../runtime/http/body.ts';

interface Read {
  body?: unknown;
  error?: string;
  status?: number;
  atOnce: boolean;
  ended: boolean;
}

let server: Server;
let port: number;

beforeAll(async () => {
  server = createServer((req, res) => {
    void (async () => {
      // the door reads the body after a promise of its own (the credential check), as here
      await Promise.resolve();
      // a turn of Node's own queue, set before the read: a body taken at once is there before it
      let turned = false;
      process.nextTick(() => {
        turned = true;
      });
      const ended = new Promise<boolean>((resolve) => {
        req.once('end', () => resolve(true));
        setTimeout(() => resolve(false), 300).unref();
      });
      const read: Read = await readJsonNode(req, 64).then(
        (body) => ({ body, atOnce: !turned, ended: false }),
        (e: { status?: number; message: string }) => ({ error: e.message, status: e.status, atOnce: !turned, ended: false }),
      );
      read.ended = await ended;
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(read));
    })();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

const head = (body: string) => `POST / HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\n\r\n`;

/** requests on one connection, each written as `pieces` with a pause between them; the answers' bodies */
function exchange(requests: string[][]): Promise<Read[]> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const answers: Read[] = [];
    let text = '';
    const send = async (i: number) => {
      for (const [k, piece] of requests[i].entries()) {
        if (k > 0) await new Promise((r) => setTimeout(r, 30));
        socket.write(piece);
      }
    };
    socket
      .on('data', (d: Buffer) => {
        text += d.toString();
        // each answer is one JSON line after its headers, with no content-length: read it by its end
        for (let m = /\r\n\r\n[0-9a-f]+\r\n(\{.*?\})\r\n0\r\n\r\n/s.exec(text); m; m = /\r\n\r\n[0-9a-f]+\r\n(\{.*?\})\r\n0\r\n\r\n/s.exec(text)) {
          answers.push(JSON.parse(m[1]) as Read);
          text = text.slice(m.index + m[0].length);
          if (answers.length === requests.length) {
            socket.end();
            resolve(answers);
          } else void send(answers.length);
        }
      })
      .on('error', reject);
    void send(0);
  });
}

const once = (body: string) => [head(body) + body];
const later = (body: string) => [head(body), body];

describe('a JSON body read from Node', () => {
  it('that came with its headers is taken at once; one that comes later is read as it arrives; both the same', async () => {
    const [atOnce, asItComes] = await exchange([once('{"email":"jane@acme.com"}'), later('{"email":"jane@acme.com"}')]);
    expect(atOnce).toEqual({ body: { email: 'jane@acme.com' }, atOnce: true, ended: true });
    expect(asItComes).toEqual({ body: { email: 'jane@acme.com' }, atOnce: false, ended: true });
  });

  it('refuses what is not JSON, and a body past the limit, the same way by either path', async () => {
    const [bad, badLater, big, bigLater] = await exchange([once('{"email":'), later('{"email":'), once(`"${'x'.repeat(80)}"`), later(`"${'x'.repeat(80)}"`)]);
    for (const r of [bad, badLater]) expect(r).toMatchObject({ status: 400, error: expect.stringContaining('not valid JSON') as string, ended: true });
    expect(bad.error).toBe(badLater.error);
    for (const r of [big, bigLater]) expect(r).toMatchObject({ status: 413, error: 'Request body too large: the limit is 64 bytes.' });
  });

  it('leaves the connection ready for the next request, and an empty body undefined', async () => {
    const answers = await exchange([once('{"n":1}'), once('{"n":2}'), once(' '), once('\ufeff{"n":3}')]);
    expect(answers.map((a) => a.body)).toEqual([{ n: 1 }, { n: 2 }, undefined, { n: 3 }]);
    expect(answers.every((a) => a.atOnce && a.ended)).toBe(true);
  });
});
