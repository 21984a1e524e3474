// svc's front (runtime/front/) over raw sockets on loopback: which requests it answers itself (none
// of them reach Node's HTTP server, whose diagnostics channel counts what it parses), and that every
// other request, on a fresh connection or in the middle of one, is answered by Node's server exactly
// as before, with no byte lost or answered out of order.
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { connect, type Socket } from 'node:net';
import { H3 } from 'h3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer } from '../../runtime/server.ts';
import type { PlainAnswer } from '../../runtime/errors.ts';
import { FIXTURE_DIST } from '../helpers/paths.ts';
import { routedWorld, type RoutedWorld } from '../helpers/routed.ts';

let w: RoutedWorld;
let parsedByNode = 0;
/** requests Node's server parsed for svc (the sandbox's own server, in this process too, is not counted) */
const counted = (message: unknown) => { if ((message as { socket: Socket }).socket.localPort === Number(new URL(w.url).port)) parsedByNode++; };
beforeAll(async () => {
  w = await routedWorld(FIXTURE_DIST);
  subscribe('http.server.request.start', counted);
});
afterAll(async () => {
  unsubscribe('http.server.request.start', counted);
  await w.close();
});

interface Answer { status: number; headers: Record<string, string>; body: string }

/** A connection that reads answers as they come: framed by Content-Length or chunks; interim (1xx) answers kept too. */
class Raw {
  private buf = Buffer.alloc(0);
  private waiters: Array<() => void> = [];
  closed = false;
  readonly socket: Socket;

  constructor(url: string) {
    const { port } = new URL(url);
    this.socket = connect(Number(port), '127.0.0.1');
    this.socket.on('data', (d) => { this.buf = Buffer.concat([this.buf, d]); this.wake(); });
    this.socket.on('close', () => { this.closed = true; this.wake(); });
  }

  private wake(): void {
    for (const w of this.waiters.splice(0)) w();
  }

  send(bytes: string | Buffer): void {
    this.socket.write(bytes);
  }

  /** the next answer whole, or null once the connection closed without one */
  async answer(): Promise<Answer | null> {
    for (;;) {
      const a = this.take();
      if (a) return a;
      if (this.closed) return null;
      await new Promise<void>((r) => this.waiters.push(r));
    }
  }

  async answers(n: number): Promise<Answer[]> {
    const out: Answer[] = [];
    while (out.length < n) {
      const a = await this.answer();
      if (!a) throw new Error(`the connection closed after ${out.length} answers`);
      out.push(a);
    }
    return out;
  }

  /** resolves once the server has closed the connection */
  async ends(): Promise<void> {
    while (!this.closed) await new Promise<void>((r) => this.waiters.push(r));
  }

  private take(): Answer | null {
    const end = this.buf.indexOf('\r\n\r\n');
    if (end < 0) return null;
    const [statusLine, ...lines] = this.buf.toString('latin1', 0, end).split('\r\n');
    const headers = Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]));
    const status = Number(statusLine.split(' ')[1]);
    let rest = this.buf.subarray(end + 4);
    let body: Buffer;
    if (headers['transfer-encoding'] === 'chunked') {
      const parts: Buffer[] = [];
      for (;;) {
        const at = rest.indexOf('\r\n');
        if (at < 0) return null;
        const size = Number.parseInt(rest.toString('latin1', 0, at), 16);
        if (rest.length < at + 2 + size + 2) return null;
        parts.push(rest.subarray(at + 2, at + 2 + size));
        rest = rest.subarray(at + 2 + size + 2);
        if (size === 0) break;
      }
      body = Buffer.concat(parts);
    } else {
      const length = Number(headers['content-length'] ?? 0);
      if (rest.length < length) return null;
      body = rest.subarray(0, length);
      rest = rest.subarray(length);
    }
    this.buf = Buffer.from(rest);
    return { status, headers, body: body.toString('utf8') };
  }
}

const open = (): Raw => new Raw(w.url);
const routed = (email: string, extra = '', token = w.token): string => {
  const body = JSON.stringify({ email });
  return `POST /proxy/people.email.verify HTTP/1.1\r\nhost: svc\r\nx-svc-token: ${token}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\n${extra}\r\n${body}`;
};
const served = (a: Answer) => JSON.parse(a.body) as { output: Record<string, unknown>; _svc: { call_id: string; served_by: string; cost_micro: number } };
/** how many requests Node's server parsed while `f` ran */
async function nodeParsed(f: () => Promise<void>): Promise<number> {
  const before = parsedByNode;
  await f();
  return parsedByNode - before;
}

describe("svc's front", () => {
  it('answers simple routed calls itself, one after another on a kept-alive connection, as Node would frame them', async () => {
    const c = open();
    const n = await nodeParsed(async () => {
      for (const email of ['jane@acme.com', 'joe@acme.com']) {
        c.send(routed(email));
        const a = (await c.answer())!;
        expect(a.status).toBe(200);
        expect(Number(a.headers['content-length'])).toBe(Buffer.byteLength(a.body));
        expect(a.headers.connection).toBe('keep-alive');
        expect(a.headers.date).toMatch(/ GMT$/);
        expect(a.headers['x-svc-call-id']).toBe(served(a)._svc.call_id);
        expect(a.headers['x-svc-cost-micro']).toBe(String(served(a)._svc.cost_micro));
        expect(served(a)._svc.served_by).toBeTruthy();
      }
    });
    expect(n).toBe(0);
    c.socket.destroy();
  });

  it('answers the same as a call through fetch, errors included', async () => {
    const c = open();
    c.send(routed('jane@acme.com', '', 'svc_not_a_token'));
    const raw = (await c.answer())!;
    const viaFetch = await w.call('/proxy/people.email.verify', { email: 'jane@acme.com' }, {}, 'svc_not_a_token');
    expect(raw.status).toBe(401);
    expect(JSON.parse(raw.body)).toEqual(viaFetch.body);
    c.send(routed('not an email'));
    const invalid = (await c.answer())!;
    const invalidViaFetch = await w.call('/proxy/people.email.verify', { email: 'not an email' });
    expect(invalid.status).toBe(invalidViaFetch.status);
    expect(invalid.status).toBeGreaterThanOrEqual(400);
    expect(JSON.parse(invalid.body)).toEqual(invalidViaFetch.body);
    c.socket.destroy();
  });

  it('answers calls sent ahead in one write in order, each once', async () => {
    const c = open();
    const emails = ['a1@acme.com', 'a2@acme.com', 'a3@acme.com'];
    const n = await nodeParsed(async () => {
      c.send(emails.map((e) => routed(e)).join(''));
      const answers = await c.answers(3);
      expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
      expect(new Set(answers.map((a) => served(a)._svc.call_id)).size).toBe(3);
    });
    expect(n).toBe(0);
    c.socket.destroy();
  });

  it('hands a connection to Node at its first request it does not read, with the bytes after the last one it answered', async () => {
    const c = open();
    const n = await nodeParsed(async () => {
      c.send(`${routed('b1@acme.com')}GET /catalog/platforms HTTP/1.1\r\nhost: svc\r\n\r\n${routed('b2@acme.com')}`);
      const [first, platforms, last] = await c.answers(3);
      expect(first.status).toBe(200);
      expect(served(first)._svc.served_by).toBeTruthy();
      expect(platforms.status).toBe(200);
      expect(JSON.parse(platforms.body)).toBeTruthy();
      // once handed over, the connection stays with Node's server
      expect(last.status).toBe(200);
      expect(served(last)._svc.served_by).toBeTruthy();
    });
    expect(n).toBe(2);
    c.socket.destroy();
  });

  it('leaves to Node what asks for more than a request and its answer: a chunked body, Expect, Connection: close', async () => {
    const body = JSON.stringify({ email: 'c1@acme.com' });
    const chunked = open();
    chunked.send(`POST /proxy/people.email.verify HTTP/1.1\r\nhost: svc\r\nx-svc-token: ${w.token}\r\ncontent-type: application/json\r\ntransfer-encoding: chunked\r\n\r\n${Buffer.byteLength(body).toString(16)}\r\n${body}\r\n0\r\n\r\n`);
    expect((await chunked.answer())!.status).toBe(200);
    chunked.send(routed('c2@acme.com'));
    expect((await chunked.answer())!.status).toBe(200);
    chunked.socket.destroy();

    const expecting = open();
    expecting.send(`POST /proxy/people.email.verify HTTP/1.1\r\nhost: svc\r\nx-svc-token: ${w.token}\r\ncontent-type: application/json\r\ncontent-length: ${body.length}\r\nexpect: 100-continue\r\n\r\n`);
    expect((await expecting.answer())!.status).toBe(100);
    expecting.send(body);
    expect((await expecting.answer())!.status).toBe(200);
    expecting.socket.destroy();

    const closing = open();
    closing.send(routed('c3@acme.com', 'connection: close\r\n'));
    const a = (await closing.answer())!;
    expect(a.status).toBe(200);
    expect(a.headers.connection).toBe('close');
    await closing.ends();
  });

  it('hands over a request that has not all arrived, and Node reads the rest', async () => {
    const c = open();
    const whole = routed('d1@acme.com');
    const cut = whole.indexOf('\r\n\r\n') + 4;
    const n = await nodeParsed(async () => {
      c.send(whole.slice(0, cut));
      await new Promise((r) => setTimeout(r, 30));
      c.send(whole.slice(cut));
      expect((await c.answer())!.status).toBe(200);
    });
    expect(n).toBe(1);
    c.socket.destroy();
  });

  it("leaves Node's refusals to Node: a body past the limit (413), a malformed head (400), a repeated header", async () => {
    const big = open();
    const body = JSON.stringify({ email: `${'x'.repeat(70_000)}@acme.com` });
    big.send(`POST /proxy/people.email.verify HTTP/1.1\r\nhost: svc\r\nx-svc-token: ${w.token}\r\ncontent-type: application/json\r\ncontent-length: ${body.length}\r\n\r\n${body}`);
    expect((await big.answer())!.status).toBe(413);
    big.socket.destroy();

    const malformed = open();
    malformed.send(`POST /proxy/people.email.verify HTTP/1.1\r\nhost: svc\r\nno colon here\r\ncontent-length: 2\r\n\r\n{}`);
    expect((await malformed.answer())!.status).toBe(400);
    malformed.socket.destroy();

    const twice = open();
    twice.send(routed('e1@acme.com', `x-svc-token: ${w.token}\r\n`));
    // Node joins the two tokens into one that names no team
    expect((await twice.answer())!.status).toBe(401);
    twice.socket.destroy();
  });

  it('answers a call whose client has sent all it will (a half-close), then closes', async () => {
    const c = open();
    c.socket.end(routed('f1@acme.com'));
    const a = (await c.answer())!;
    expect(a.status).toBe(200);
    expect(a.headers.connection).toBe('close');
    await c.ends();
  });
});

describe("svc's front in the server, with takers of its own", () => {
  const post = (url: string) => fetch(`${url}/x`, { method: 'POST', body: '{}' });

  it("leaves a request whose taker throws to Node's server and the app", async () => {
    const server = await startServer(new H3().post('/x', () => 'from the app'), { port: 0, front: { take: () => { throw new Error('no router'); }, maxBodyBytes: 1_000 } });
    const r = await post(server.url);
    expect(await r.text()).toBe('from the app');
    await server.close();
  });

  it('counts its calls in flight for a drain, and closes the connection with the answer', async () => {
    const replies: Array<(a: PlainAnswer) => void> = [];
    const server = await startServer(new H3(), { port: 0, front: { take: (_req, r) => replies.push(r) > 0, maxBodyBytes: 1_000 } });
    const answer = post(server.url);
    while (!replies.length) await new Promise((r) => setTimeout(r, 5));
    const drained = server.drain(5_000);
    await new Promise((r) => setTimeout(r, 20));
    replies[0]({ status: 200, headers: { 'content-type': 'text/plain' }, text: 'taken' });
    const r = await answer;
    expect(await r.text()).toBe('taken');
    expect(r.headers.get('connection')).toBe('close');
    expect(await drained).toBe(0);
  });
});
