// What svc's provider connections guarantee, through undici, against providers on loopback that
// misbehave at the socket: no request sent twice, no stray answer handed to the next call, no
// connection shared between credentials, memory that follows an answer's bytes, and no byte sent
// to a server whose certificate fails.
import { createServer as createHttpsServer } from 'node:https';
import { createServer as createTcpServer, type Server, type Socket } from 'node:net';
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ProviderClient } from '../../runtime/router/http.ts';
import { OutgoingRequest } from '../../runtime/router/build-request.ts';

const TLS = join(import.meta.dirname, '..', 'fixtures', 'tls');
const key = readFileSync(join(TLS, 'key.pem'));
const cert = readFileSync(join(TLS, 'cert.pem'));

/** one request as a raw provider read it */
interface Seen {
  socket: Socket;
  connection: number;
  path: string;
  /** the key the request carried */
  key: string | undefined;
  body: string;
}

/**
 * A provider on raw sockets: it reads each request (head, then a Content-Length body) and hands it to
 * `answer`, which writes whatever bytes the test wants.
 */
async function rawProvider(answer: (r: Seen) => void): Promise<{ origin: string; seen: Seen[]; connections: () => number; close: () => Promise<void> }> {
  const seen: Seen[] = [];
  const sockets: Socket[] = [];
  const server: Server = createTcpServer((socket) => {
    const connection = sockets.push(socket);
    let buf = '';
    socket.on('error', () => {});
    socket.on('data', (d) => {
      buf += d.toString('latin1');
      for (;;) {
        const end = buf.indexOf('\r\n\r\n');
        if (end < 0) return;
        const head = buf.slice(0, end);
        const length = Number(/content-length: *(\d+)/i.exec(head)?.[1] ?? 0);
        if (buf.length < end + 4 + length) return;
        const r = { socket, connection, path: head.split(' ')[1], key: /x-api-key: *(\S+)/i.exec(head)?.[1], body: buf.slice(end + 4, end + 4 + length) };
        buf = buf.slice(end + 4 + length);
        seen.push(r);
        answer(r);
      }
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    connections: () => sockets.length,
    close: () =>
      new Promise<void>((r) => {
        for (const s of sockets) s.destroy();
        server.close(() => r());
      }),
  };
}

/** an answer's bytes as a provider on HTTP/1.1 keep-alive frames it */
const answerBytes = (json: unknown) => {
  const body = JSON.stringify(json);
  return `HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nkeep-alive: timeout=30\r\n\r\n${body}`;
};

/** a request carrying `credential` in its key header, as a child request carries its key */
const post = (origin: string, path: string, body: unknown, credential = 'platform-key') =>
  new OutgoingRequest('POST', origin, path, { 'content-type': 'application/json', 'x-api-key': credential }, JSON.stringify(body), credential);
const get = (origin: string, path: string, credential = 'platform-key') =>
  new OutgoingRequest('GET', origin, path, { 'x-api-key': credential }, null, credential);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});
async function provider(answer: (r: Seen) => void) {
  const p = await rawProvider(answer);
  cleanups.push(p.close);
  return p;
}
function client(opts?: ConstructorParameters<typeof ProviderClient>[0]) {
  const c = new ProviderClient(opts);
  cleanups.push(() => c.close());
  return c;
}

describe('provider connections', () => {
  it('never sends a request again after its kept connection drops, whatever the method', async () => {
    const p = await provider((r) => {
      if (r.path === '/first') r.socket.write(answerBytes({ ok: 1 }));
      else r.socket.destroy();
    });
    const c = client();
    expect((await c.send(get(p.origin, '/first'), 2_000)).status).toBe(200);
    const [g, q] = [await c.send(get(p.origin, '/dropped-get'), 2_000), await c.send(post(p.origin, '/dropped-post', { a: 1 }), 2_000)];
    expect([g.failure, q.failure]).toEqual(['network', 'network']);
    await sleep(200);
    expect(p.seen.map((r) => r.path)).toEqual(['/first', '/dropped-get', '/dropped-post']);
  });

  it('destroys a kept connection that receives an answer nobody asked for, in the same read or later, and the next call gets its own', async () => {
    const p = await provider((r) => {
      const answer = answerBytes({ for: r.path });
      if (r.path === '/same-read') r.socket.write(answer + answerBytes({ for: 'nobody' }));
      else if (r.path === '/later') {
        r.socket.write(answer);
        setTimeout(() => r.socket.write(answerBytes({ for: 'nobody' })), 50);
      } else r.socket.write(answer);
    });
    const c = client();
    for (const stray of ['/same-read', '/later']) {
      expect((await c.send(get(p.origin, stray), 2_000)).body).toEqual({ for: stray });
      await sleep(150);
      const next = await c.send(get(p.origin, `${stray}/next`), 2_000);
      expect(next.body).toEqual({ for: `${stray}/next` });
      const [strayAt, nextAt] = [p.seen.find((r) => r.path === stray)!, p.seen.find((r) => r.path === `${stray}/next`)!];
      expect(nextAt.connection).not.toBe(strayAt.connection);
    }
  });

  it("keeps each credential's connections apart: a provider's late second answer cannot reach another key's call", async () => {
    // the review's bleed: team A's call is answered, then 300 ms later answered again; team B's call,
    // sent at +100 ms with its own key, is answered only after 1 s
    const p = await provider((r) => {
      const { email } = JSON.parse(r.body) as { email: string };
      if (email.startsWith('bleed')) {
        r.socket.write(answerBytes({ email }));
        setTimeout(() => {
          if (!r.socket.destroyed) r.socket.write(answerBytes({ email, secret: `data for ${email}` }));
        }, 300);
      } else
        setTimeout(() => {
          if (!r.socket.destroyed) r.socket.write(answerBytes({ email }));
        }, 1_000);
    });
    const c = client();
    const a = await c.send(post(p.origin, '/verify', { email: 'bleed-alice@a.com' }, 'key-of-team-a'), 3_000);
    expect(a.body).toEqual({ email: 'bleed-alice@a.com' });
    await sleep(100);
    const b = await c.send(post(p.origin, '/verify', { email: 'bob@b.com' }, 'key-of-team-b'), 3_000);
    expect(b.body).toEqual({ email: 'bob@b.com' });
    // many calls at once and one after another, three keys: no connection ever carried two keys
    const keys = ['key-of-team-a', 'key-of-team-b', 'platform-key'];
    await Promise.all(Array.from({ length: 12 }, (_, i) => c.send(post(p.origin, '/verify', { email: `bleed-${i}@x.com` }, keys[i % 3]), 3_000)));
    for (const key of keys) await c.send(post(p.origin, '/verify', { email: `bleed-again@${key}` }, key), 3_000);
    const keysOn = new Map<number, Set<string | undefined>>();
    for (const r of p.seen) keysOn.set(r.connection, (keysOn.get(r.connection) ?? new Set()).add(r.key));
    expect([...keysOn.values()].every((k) => k.size === 1)).toBe(true);
    expect(p.seen).toHaveLength(17);
  });

  it('holds an answer of 8M one-byte chunks in memory about its size, and the size limit counts its bytes', async () => {
    const chunks = Buffer.from('1\r\nx\r\n'.repeat(10_000));
    const p = await provider(async (r) => {
      r.socket.write('HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n');
      for (let i = 0; i < 800 && !r.socket.destroyed; i++) if (!r.socket.write(chunks)) await new Promise((w) => r.socket.once('drain', w));
      if (!r.socket.destroyed) r.socket.write('0\r\n\r\n');
    });
    const c = client();
    const base = process.memoryUsage().heapUsed;
    let peak = base;
    const sample = setInterval(() => {
      peak = Math.max(peak, process.memoryUsage().heapUsed);
    }, 10);
    try {
      const whole = await c.send(get(p.origin, '/tiny'), 120_000);
      expect([whole.status, whole.text.length]).toEqual([200, 8_000_000]);
      expect((peak - base) / 2 ** 20).toBeLessThan(200); // svc's own client held about 900 MB
      const limited = await c.send(get(p.origin, '/tiny-limited'), 120_000, 1_000_000);
      expect([limited.status, limited.failure]).toEqual([0, 'too_large']);
    } finally {
      clearInterval(sample);
    }
  }, 240_000);

  it('refuses a certificate it cannot trust or that names another host before sending a byte', async () => {
    let requests = 0;
    const server = createHttpsServer({ key, cert }, (_req, res) => {
      requests++;
      res.end('{"ok":true}');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    cleanups.push(
      () =>
        new Promise<void>((r) => {
          server.closeAllConnections();
          server.close(() => r());
        }),
    );
    const port = (server.address() as AddressInfo).port;
    const trusting = client({ ca: cert });
    // the fixture is trusted here and names localhost and 127.0.0.1: it is answered
    expect((await trusting.send(get(`https://localhost:${port}`, '/'), 3_000)).body).toEqual({ ok: true });
    expect(requests).toBe(1);
    // self-signed and not trusted: refused
    expect((await client().send(post(`https://localhost:${port}`, '/', { key: 'never sent' }), 3_000)).failure).toBe('network');
    // trusted, but reached as a host it does not name (127.0.0.2 is loopback too)
    server.close();
    const other = createHttpsServer({ key, cert }, (_req, res) => {
      requests++;
      res.end('{"ok":true}');
    });
    await new Promise<void>((r) => other.listen(0, '127.0.0.2', r));
    cleanups.push(
      () =>
        new Promise<void>((r) => {
          other.closeAllConnections();
          other.close(() => r());
        }),
    );
    const wrongName = await trusting.send(post(`https://127.0.0.2:${(other.address() as AddressInfo).port}`, '/', { key: 'never sent' }), 3_000);
    expect(wrongName.failure).toBe('network');
    expect(requests).toBe(1);
  });
});
