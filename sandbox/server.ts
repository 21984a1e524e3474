// The listening sandbox (node:http, so a `reset` can destroy the socket and a stall ends when the
// client goes away or the server closes).
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { controlAnswer, splitService } from './fetch.ts';
import type { Sandbox } from './sandbox.ts';
import type { SandboxAnswer } from './types.ts';

export interface RunningSandbox {
  port: number;
  /** http://127.0.0.1:<port> */
  url: string;
  close(): Promise<void>;
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function send(res: ServerResponse, status: number, text: string, type = 'application/json', headers?: Record<string, string>): Promise<void> {
  return new Promise((resolve) => {
    res.writeHead(status, { ...headers, 'content-type': type, 'content-length': Buffer.byteLength(text) });
    res.end(text, () => resolve());
  });
}

/** Wait, unless the client leaves first (false). */
function wait(ms: number, res: ServerResponse): Promise<boolean> {
  return new Promise((resolve) => {
    if (res.destroyed) return resolve(false);
    const onClose = (): void => {
      clearTimeout(t);
      resolve(false);
    };
    const t = setTimeout(() => {
      res.off('close', onClose);
      resolve(true);
    }, ms);
    res.once('close', onClose);
  });
}

async function write(sb: Sandbox, a: SandboxAnswer, res: ServerResponse): Promise<void> {
  if (a.kind === 'reset') {
    res.socket?.destroy();
    return;
  }
  if (a.kind === 'stall') {
    await wait(a.ms, res);
    res.socket?.destroy();
    return;
  }
  if (a.delayMs && !(await wait(a.delayMs, res))) return;
  if (a.kind === 'text') return send(res, a.status, a.text, a.contentType);
  const text = JSON.stringify(a.body);
  if (a.charge && !res.destroyed) sb.record(a.charge);
  await send(res, a.status, text, 'application/json', a.headers);
}

async function serve(sb: Sandbox, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://sandbox');
  const method = (req.method ?? 'GET').toUpperCase();
  const bodyText = await readBody(req);
  const control = controlAnswer(sb, method, url.pathname);
  if (control) return send(res, control.status, JSON.stringify(control.body));
  const { service, path } = splitService(url.pathname);
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(req.headers)) if (v !== undefined) headers[k] = Array.isArray(v) ? v.join(', ') : v;
  await write(sb, await sb.handle(service, { method, path, query: url.searchParams, headers, bodyText }), res);
}

export function startSandbox(sb: Sandbox, port = 8788, host = '127.0.0.1'): Promise<RunningSandbox> {
  const server = createServer((req, res) => {
    serve(sb, req, res).catch(() => {
      if (!res.headersSent) void send(res, 500, '{"error":"sandbox error"}');
      else res.destroy();
    });
  });
  server.keepAliveTimeout = 65_000;
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      const actual = (server.address() as AddressInfo).port;
      const url = `http://${host}:${actual}`;
      resolve({
        port: actual,
        url,
        close: () =>
          new Promise<void>((done) => {
            server.close(() => done());
            server.closeAllConnections();
          }),
      });
    });
  });
}
