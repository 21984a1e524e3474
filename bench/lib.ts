// Small helpers shared by the benchmarks: medians, autocannon runs, a bare baseline server.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import autocannon from 'autocannon';

export const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
export const fmt = (n: number, digits = 2) => n.toFixed(digits);

export function line(label: string, value: string, target?: string, ok?: boolean): void {
  process.stdout.write(`${label.padEnd(58)} ${value.padStart(14)}${target ? `   target ${target} ${ok ? 'ok' : 'MISSED'}` : ''}\n`);
}

export interface LoadResult { rps: number; p50: number; p99: number }

export async function load(url: string, opts: { connections?: number; seconds?: number; method?: 'GET' | 'POST'; body?: string; headers?: Record<string, string> } = {}): Promise<LoadResult> {
  const r = await autocannon({ url, connections: opts.connections ?? 50, duration: opts.seconds ?? 5, method: opts.method ?? 'GET', body: opts.body, headers: opts.headers });
  if (r.non2xx > 0 || r.errors > 0) throw new Error(`${url}: ${r.non2xx} non-2xx answers, ${r.errors} errors`);
  return { rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99 };
}

/** The floor for a Node server: answers a preloaded buffer, nothing else. */
export async function bareServer(body: Buffer): Promise<{ url: string; server: Server }> {
  const server = createServer((_req, res) => { res.writeHead(200, { 'content-type': 'application/json', 'content-length': body.length }); res.end(body); });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}
