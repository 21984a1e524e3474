// svc's provider client against real servers on loopback: connections kept and reused, closed ones
// left, HTTPS with its certificate checked, and idle connections that never hold a process open.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { createServer as createTcpServer, type AddressInfo, type Server as TcpServer, type Socket } from 'node:net';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ProviderPool } from '../../runtime/provider-client/pool.ts';
import type { AnswerHandler } from '../../runtime/provider-client/connection.ts';
import type { ClientRequest } from '../../runtime/provider-client/request-bytes.ts';

const TLS = join(import.meta.dirname, '..', 'fixtures', 'tls');
const cert = readFileSync(join(TLS, 'cert.pem'));
const key = readFileSync(join(TLS, 'key.pem'));

interface Answer { status: number; body: string; failure?: string }

/** one request through `pool`, as the router's exchange makes it */
function call(pool: ProviderPool, origin: string, path: string, init: Partial<ClientRequest> = {}): Promise<Answer> {
  return new Promise((resolve) => {
    let status = 0;
    const pieces: Buffer[] = [];
    const handler: AnswerHandler = {
      status(code) { status = code; },
      body(piece) { pieces.push(piece); return true; },
      end() { resolve({ status, body: Buffer.concat(pieces).toString('utf8') }); },
      fail(reason) { resolve({ status: 0, body: '', failure: reason }); },
    };
    pool.send({ method: 'GET', origin, path, headers: { accept: 'application/json' }, body: null, ...init }, handler);
  });
}

const listen = async <S extends Server | TcpServer>(server: S): Promise<{ server: S; port: number; sockets: Socket[] }> => {
  const sockets: Socket[] = [];
  server.on('connection', (s: Socket) => sockets.push(s));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { server, port: (server.address() as AddressInfo).port, sockets };
};
const closeAll = (s: Server | TcpServer, sockets: Socket[]) => new Promise<void>((r) => { for (const c of sockets) c.destroy(); s.close(() => r()); });

/** echoes method, path, the headers asked for and the body, as JSON; /chunked answers in pieces; /close asks to close */
function echo(req: IncomingMessage, res: ServerResponse): void {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c)).on('end', () => {
    const body = JSON.stringify({ method: req.method, url: req.url, host: req.headers.host, agent: req.headers['user-agent'], length: req.headers['content-length'] ?? null, body: Buffer.concat(chunks).toString('utf8') });
    if (req.url === '/chunked') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write(body.slice(0, 10));
      setTimeout(() => res.end(body.slice(10)), 5);
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), ...(req.url === '/close' ? { connection: 'close' } : {}) });
    res.end(body);
  });
}

let http: Awaited<ReturnType<typeof listen<Server>>>;
let origin: string;
const pools: ProviderPool[] = [];
const newPool = (...args: ConstructorParameters<typeof ProviderPool>) => { const p = new ProviderPool(...args); pools.push(p); return p; };

beforeAll(async () => {
  http = await listen(createHttpServer(echo));
  origin = `http://127.0.0.1:${http.port}`;
});
afterEach(() => { for (const p of pools.splice(0)) p.close(); });
afterAll(() => closeAll(http.server, http.sockets));

describe('provider client', () => {
  it('sends one request and reads its answer: path, Host, user agent, a UTF-8 body and its length', async () => {
    const a = await call(newPool(), origin, '/v1/x?q=%C3%A9', { method: 'POST', body: '{"name":"Zoë"}', headers: { 'content-type': 'application/json' } });
    expect(a.status).toBe(200);
    expect(JSON.parse(a.body)).toEqual({ method: 'POST', url: '/v1/x?q=%C3%A9', host: `127.0.0.1:${http.port}`, agent: 'svc', length: '15', body: '{"name":"Zoë"}' });
  });

  it('keeps the connection for the next request, and opens more only for requests at once', async () => {
    const pool = newPool();
    const before = http.sockets.length;
    for (let i = 0; i < 5; i++) expect((await call(pool, origin, `/seq${i}`)).status).toBe(200);
    expect(http.sockets.length - before).toBe(1);
    const together = await Promise.all([1, 2, 3].map((i) => call(pool, origin, `/at-once${i}`)));
    expect(together.map((a) => JSON.parse(a.body).url)).toEqual(['/at-once1', '/at-once2', '/at-once3']);
    expect(http.sockets.length - before).toBe(3);
  });

  it('reads a chunked answer whole', async () => {
    const a = await call(newPool(), origin, '/chunked');
    expect(JSON.parse(a.body).url).toBe('/chunked');
  });

  it('leaves a connection the answer asked to close, and the next request opens another', async () => {
    const pool = newPool();
    const before = http.sockets.length;
    expect((await call(pool, origin, '/close')).status).toBe(200);
    expect((await call(pool, origin, '/after-close')).status).toBe(200);
    expect(http.sockets.length - before).toBe(2);
  });

  it('does not reuse a connection its server closed while idle', async () => {
    // answers keeping the connection, then closes it 30 ms later, as a server's idle timeout does
    const tcp = await listen(createTcpServer((s) => {
      s.once('data', () => {
        s.write('HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n{}');
        setTimeout(() => s.end(), 30);
      });
    }));
    const pool = newPool();
    const at = `http://127.0.0.1:${tcp.port}`;
    expect((await call(pool, at, '/a')).status).toBe(200);
    await new Promise((r) => setTimeout(r, 100));
    expect(await call(pool, at, '/b')).toEqual({ status: 200, body: '{}' });
    expect(tcp.sockets.length).toBe(2);
    await closeAll(tcp.server, tcp.sockets);
  });

  it('does not reuse a connection past the time its server keeps one, or past its own idle time', async () => {
    const server = createHttpServer(echo);
    server.keepAliveTimeout = 1_500; // says Keep-Alive: timeout=1, which leaves no time to reuse it
    const short = await listen(server);
    const pool = newPool();
    const at = `http://127.0.0.1:${short.port}`;
    await call(pool, at, '/a');
    await call(pool, at, '/b');
    expect(short.sockets.length).toBe(2);
    await closeAll(short.server, short.sockets);

    // a server that says nothing of how long it keeps a connection: the pool's own idle time holds
    const silent = await listen(createTcpServer((c) => c.on('data', () => c.write('HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n{}'))));
    const quick = newPool({ idleMs: 50 });
    const there = `http://127.0.0.1:${silent.port}`;
    await call(quick, there, '/c');
    await call(quick, there, '/d');
    expect(silent.sockets.length).toBe(1);
    await new Promise((r) => setTimeout(r, 80));
    expect(await call(quick, there, '/e')).toEqual({ status: 200, body: '{}' });
    expect(silent.sockets.length).toBe(2);
    await closeAll(silent.server, silent.sockets);
  });

  it('fails, rather than hangs, on a server that drops the connection mid-answer or cannot be reached', async () => {
    const tcp = await listen(createTcpServer((s) => s.once('data', () => s.end('HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\n{"a"'))));
    const cut = await call(newPool(), `http://127.0.0.1:${tcp.port}`, '/');
    expect(cut.failure).toMatch(/closed before/);
    await closeAll(tcp.server, tcp.sockets);
    const refused = await call(newPool(), `http://127.0.0.1:${tcp.port}`, '/');
    expect(refused.failure).toBe('ECONNREFUSED');
  });

  it('speaks HTTPS, checking the certificate: a trusted one is answered, an unknown one refused', async () => {
    const https = await listen(createHttpsServer({ key, cert }, echo));
    const at = `https://localhost:${https.port}`;
    const trusted = newPool({ tls: { ca: cert } });
    const a = await call(trusted, at, '/secure');
    expect([a.status, JSON.parse(a.body).host]).toEqual([200, `localhost:${https.port}`]);
    expect((await call(trusted, at, '/again')).status).toBe(200);
    expect(https.sockets.length).toBe(1);
    expect((await call(newPool(), at, '/untrusted')).failure).toBe('DEPTH_ZERO_SELF_SIGNED_CERT');
    await closeAll(https.server, https.sockets);
  });

  it('holds no process open with idle connections', async () => {
    // a script that makes one request and ends: it exits at once, though its connection is kept
    const script = `
      import { ProviderPool } from ${JSON.stringify(join(import.meta.dirname, '..', '..', 'runtime', 'provider-client', 'pool.ts'))};
      const t0 = Date.now();
      new ProviderPool().send({ method: 'GET', origin: ${JSON.stringify(origin)}, path: '/from-child', headers: {}, body: null }, {
        status() {}, body() { return true; }, fail(r) { console.log('failed ' + r); },
        end() { console.log('answered'); process.on('exit', () => console.log('exited after ' + (Date.now() - t0) + ' ms')); },
      });`;
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'inherit'], timeout: 10_000 });
    let stdout = '';
    child.stdout.on('data', (d: Buffer) => { stdout += d.toString(); });
    await new Promise((r) => child.once('exit', r));
    expect(stdout).toMatch(/^answered\nexited after \d+ ms\n$/);
    expect(Number(/after (\d+)/.exec(stdout)![1])).toBeLessThan(3_000); // not the 4 s an idle connection is kept
  });
});
