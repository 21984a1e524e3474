// The one HTTP exchange with a provider, against a real loopback server: answers, timeouts, resets,
// non-JSON bodies, and answers past the size limit, which are dropped without being read on.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { send, type ChildAnswer } from '../../runtime/router/http.ts';
import { OutgoingRequest } from '../../runtime/router/build-request.ts';

let server: Server;
let base: string;
let bigBytesSent = 0;

beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.url === '/json') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"ok":true,"name":"Zoë"}');
      return;
    }
    if (req.url === '/text') {
      res.writeHead(200);
      res.end('not json');
      return;
    }
    if (req.url === '/reset') {
      req.socket.destroy();
      return;
    }
    if (req.url === '/slow') return; // never answers
    if (req.url === '/drip') {
      // headers at once, then a byte every 300 ms: each gap is short, the whole answer is not
      res.writeHead(200, { 'content-type': 'application/json' });
      const drip = setInterval(() => res.write(' '), 300);
      res.on('close', () => clearInterval(drip));
      return;
    }
    if (req.url === '/big') {
      // 64 KiB at a time, up to 64 MiB unless the client stops reading
      res.writeHead(200, { 'content-type': 'application/json' });
      const chunk = Buffer.alloc(64 * 1024, 'a');
      let left = 1024;
      const more = () => {
        while (left > 0) {
          left--;
          bigBytesSent += chunk.length;
          if (!res.write(chunk)) {
            res.once('drain', more);
            return;
          }
        }
        res.end();
      };
      res.on('close', () => {
        left = 0;
      });
      more();
    }
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(
  () =>
    new Promise<void>((r) => {
      server.closeAllConnections();
      server.close(() => r());
    }),
);

const get = (path: string) => OutgoingRequest.to('GET', new URL(`${base}${path}`), { accept: 'application/json' }, null);

describe('send', () => {
  it('answers status, parsed body and the exact text (UTF-8 kept)', async () => {
    const a = await send(get('/json'), 2_000);
    expect([a.status, a.body, a.text, a.failure]).toEqual([200, { ok: true, name: 'Zoë' }, '{"ok":true,"name":"Zoë"}', undefined]);
  });

  it('keeps a body that is not JSON as text, with no parsed body', async () => {
    const a = await send(get('/text'), 2_000);
    expect([a.status, a.body, a.text]).toEqual([200, undefined, 'not json']);
  });

  it('names a timeout and a dropped connection as failures, status 0', async () => {
    const [slow, reset] = await Promise.all([send(get('/slow'), 150), send(get('/reset'), 2_000)]);
    expect([slow.status, slow.failure, reset.status, reset.failure]).toEqual([0, 'timeout', 0, 'network']);
  });

  it('keeps to its time for the whole answer, to within a timer tick, past a second too', async () => {
    // on the same event loop, a timer due 400 ms after the deadline: both answers end before it
    // fires, whatever the machine's speed (timers fire in the order they are due); undici's own
    // timers, coarse past a second, would let it fire first, and the dripping answer never ends
    const order: string[] = [];
    const later = new Promise<void>((r) =>
      setTimeout(() => {
        order.push('timer due at 1,500 ms');
        r();
      }, 1_500),
    );
    const ended = (a: Promise<ChildAnswer>, name: string) =>
      a.then((answer) => {
        order.push(name);
        return answer;
      });
    const [slow, drip] = await Promise.all([ended(send(get('/slow'), 1_100), 'slow'), ended(send(get('/drip'), 1_100), 'drip')]);
    await later;
    expect(order.slice().sort()).toEqual(['drip', 'slow', 'timer due at 1,500 ms']);
    expect(order.at(-1)).toBe('timer due at 1,500 ms');
    for (const a of [slow, drip]) {
      expect([a.status, a.failure]).toEqual([0, 'timeout']);
      expect(a.ms).toBeGreaterThanOrEqual(1_095);
    }
  });

  it('drops an answer past the size limit instead of reading it all, and the pool keeps working', async () => {
    const a = await send(get('/big'), 5_000, 256 * 1024);
    expect([a.status, a.failure, a.text]).toEqual([0, 'too_large', '']);
    await new Promise((r) => setTimeout(r, 100));
    expect(bigBytesSent).toBeLessThan(16 * 1024 * 1024); // of 64 MiB on offer
    expect((await send(get('/json'), 2_000)).status).toBe(200);
  });
});
