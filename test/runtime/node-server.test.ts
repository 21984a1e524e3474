// svc as Node's HTTP server serves it, over raw sockets: what its parser cannot read or svc will not
// speak is answered with a JSON sentence and not served, and a client that pipelines calls without
// reading the answers is stopped by backpressure instead of filling svc's memory.
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURE_DIST } from '../helpers/paths.ts';
import { servedRuntime } from '../helpers/server.ts';

let svc: Awaited<ReturnType<typeof servedRuntime>>;
let port: number;

beforeAll(async () => {
  svc = await servedRuntime(FIXTURE_DIST);
  port = Number(new URL(svc.url).port);
});
afterAll(() => svc.close());

/** the bytes sent, and everything svc answers until it closes the connection (or 3 s pass) */
function exchange(bytes: string): Promise<string> {
  return new Promise((resolve) => {
    const s = connect(port, '127.0.0.1');
    let got = '';
    s.on('data', (d) => {
      got += d.toString('latin1');
    });
    s.on('error', () => {});
    const t = setTimeout(() => s.destroy(), 3_000);
    s.on('close', () => {
      clearTimeout(t);
      resolve(got);
    });
    s.write(bytes);
  });
}

/** status and JSON body of a raw answer */
function parsed(raw: string): { status: number; headers: string; body: { detail?: string } } {
  const end = raw.indexOf('\r\n\r\n');
  return { status: Number(raw.split(' ')[1]), headers: raw.slice(0, end).toLowerCase(), body: JSON.parse(raw.slice(end + 4)) as { detail?: string } };
}

describe("requests Node's server reads but svc does not serve", () => {
  it('refuses HTTP/0.9 and a request line without a version with a 505 sentence, serving nothing', async () => {
    for (const request of ['GET /meta HTTP/0.9\r\nhost: x\r\n\r\n', 'GET /meta\r\n\r\n']) {
      const a = parsed(await exchange(request));
      expect(a.status).toBe(505);
      expect(a.headers).toContain('content-type: application/json');
      expect(a.headers).toContain('connection: close');
      expect(a.body.detail).toMatch(/HTTP versions 1\.0 and 1\.1 only/);
    }
    // the same path in HTTP/1.1 is served
    expect((await exchange('GET /meta HTTP/1.1\r\nhost: x\r\nconnection: close\r\n\r\n')).split(' ')[1]).toBe('200');
  });

  it('answers a URL past the head limit with 414 and a header block past it with 431, each a JSON sentence', async () => {
    const url = parsed(await exchange(`GET /catalog/search?q=${'a'.repeat(20_000)} HTTP/1.1\r\nhost: x\r\n\r\n`));
    expect([url.status, url.body.detail]).toEqual([414, expect.stringMatching(/^The request URL is longer than svc reads/)]);
    const head = parsed(await exchange(`GET /meta HTTP/1.1\r\nhost: x\r\n${'x-filler: aaaaaaaaaaaaaaaa\r\n'.repeat(1_000)}\r\n`));
    expect([head.status, head.body.detail]).toEqual([431, expect.stringMatching(/^The request line and headers together are larger than svc reads/)]);
    const bad = parsed(await exchange('GET /meta HTTP/1.1\r\nhost: x\r\nbad header\r\n\r\n'));
    expect([bad.status, bad.body.detail]).toEqual([400, expect.stringMatching(/not well-formed/)]);
  });
});

describe('backpressure', () => {
  it('stops reading from a client that pipelines routed calls and never reads the answers, and still serves others', async () => {
    // 256-byte routed calls with a bogus token, each answered at once with a 401
    const head = 'POST /proxy/people.email.verify HTTP/1.1\r\nhost: x\r\nx-svc-token: bogus\r\ncontent-type: application/json\r\ncontent-length: 31\r\nx-pad: ';
    const tail = '\r\n\r\n{"email":"jane.doe@stripe.com"}';
    const batch = Buffer.from((head + 'p'.repeat(256 - head.length - tail.length) + tail).repeat(256));
    const LIMIT = 24 * 2 ** 20;
    const s: Socket = connect(port, '127.0.0.1');
    s.pause(); // never reads an answer
    s.on('error', () => {});
    await new Promise((r) => s.once('connect', r));
    let sent = 0;
    let stalled = false;
    while (sent < LIMIT) {
      sent += batch.length;
      if (s.write(batch)) continue;
      // svc stops reading once its answers back up: the client's writes stop draining
      stalled = !(await Promise.race([new Promise((r) => s.once('drain', () => r(true))), new Promise((r) => setTimeout(r, 3_000, false))]));
      if (stalled) break;
    }
    expect(stalled).toBe(true);
    expect(sent).toBeLessThan(LIMIT);
    const other = await svc.fetch('/healthz');
    expect(other.status).toBe(200);
    s.destroy();
  }, 60_000);
});
