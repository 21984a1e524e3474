// Small helpers shared by the benchmarks: medians, autocannon runs, a bare baseline server.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, readFileSync, writeSync } from 'node:fs';
import { spawn, type ChildProcess } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { Client } from 'undici';
import type { SearchEngine } from '../language/search.ts';
import { npmStart } from './npm-start.ts';
import { buildCatalog } from '../build/pipeline.ts';
import { LEDGER_SYNC_MS } from '../runtime/config/config.ts';

/** the middle item by `by` (the upper middle of an even count) */
export const middle = <T>(xs: T[], by: (x: T) => number): T => [...xs].sort((a, b) => by(a) - by(b))[Math.floor(xs.length / 2)];
export const median = (xs: number[]) => middle(xs, (x) => x);
export const fmt = (n: number, digits = 2) => n.toFixed(digits);

export function line(label: string, value: string, target?: string, ok?: boolean): void {
  process.stdout.write(`${label.padEnd(58)} ${value.padStart(14)}${target ? `   target ${target} ${ok ? 'ok' : 'MISSED'}` : ''}\n`);
}

export interface LoadResult {
  rps: number;
  p50: number;
  p99: number;
  /** the serving process's CPU µs per answered request, when its pid was given (Linux) */
  cpu: number | null;
}

export interface LoadOptions {
  connections?: number;
  seconds?: number;
  /** a fixed number of requests instead of a duration */
  calls?: number;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  /** the n-th request's body or path, so that requests can differ */
  body?: (n: number) => string;
  path?: (n: number) => string;
  /** pid of the serving process, to measure its CPU per request */
  server?: number;
}

/** CPU time (user + system) a process has used so far, in µs; null where /proc is not there. */
export function cpuUs(pid: number): number | null {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) * (1e6 / 100); // clock ticks, 100 a second on Linux
  } catch {
    return null;
  }
}

/** autocannon against `url`; any non-2xx answer or error fails the benchmark. */
export async function load(url: string, opts: LoadOptions = {}): Promise<LoadResult> {
  let n = 0;
  const cpu0 = opts.server ? cpuUs(opts.server) : null;
  const r = await autocannon({
    url,
    connections: opts.connections ?? 50,
    ...(opts.calls ? { amount: opts.calls } : { duration: opts.seconds ?? 5 }),
    method: opts.method ?? 'GET',
    headers: opts.headers,
    requests: [
      {
        setupRequest: (req) => {
          n++;
          return { ...req, ...(opts.body ? { body: opts.body(n) } : {}), ...(opts.path ? { path: opts.path(n) } : {}) };
        },
      },
    ],
  });
  if (r.non2xx > 0 || r.errors > 0) throw new Error(`${url}: ${r.non2xx} non-2xx answers, ${r.errors} errors`);
  const cpu1 = opts.server ? cpuUs(opts.server) : null;
  const cpu = cpu0 !== null && cpu1 !== null ? (cpu1 - cpu0) / r.requests.total : null;
  return { rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, cpu };
}

/** the upstream checks no key; the forwarders relay one as a child request would carry it */
const CHILD_HEADERS = { 'x-check-key': 'bench' };
const childPath = (n: number) => `/checkco/check?address=jane${n}%40acme.com`;

/** the n-th request of a sequence: path, method, headers and body */
export type NthRequest = (n: number) => { path: string; method: 'GET' | 'POST'; headers: Record<string, string>; body?: string };

/** a child request, as the upstream or a forwarder to it is sent one */
export const childRequest: NthRequest = (n) => ({ path: childPath(n), method: 'GET', headers: CHILD_HEADERS });

/** a routed people.email.verify call to svc, its subject new each time */
export const routedRequest =
  (svc: Role, round: string): NthRequest =>
  (n) => ({
    path: '/proxy/people.email.verify',
    method: 'POST',
    headers: { 'x-svc-token': svc.token, 'content-type': 'application/json' },
    body: JSON.stringify({ email: `${round}.jane${n}@acme.com` }),
  });

/** the median latency, in ms, of `calls` requests sent one after another on one kept connection */
export async function sequentialP50(url: string, nth: NthRequest, calls: number): Promise<number> {
  const client = new Client(url);
  const ms: number[] = [];
  try {
    for (let n = 0; n < calls; n++) {
      const t0 = performance.now();
      const r = await client.request(nth(n));
      await r.body.dump();
      if (r.statusCode !== 200) throw new Error(`${url}: ${r.statusCode}`);
      ms.push(performance.now() - t0);
    }
  } finally {
    await client.close();
  }
  return median(ms);
}

/** child requests to `url`: the trivial upstream itself, or a forwarder to it (`server`: its pid, for its CPU) */
export const forwardedLoad = (url: string, opts: { seconds: number; connections: number; server?: number }): Promise<LoadResult> =>
  load(url, { ...opts, path: childPath, headers: CHILD_HEADERS });

/** routed people.email.verify calls to svc, each subject new (identical calls in flight would be merged) */
export const routedLoad = (svc: Role, round: string, opts: { seconds: number; connections: number }): Promise<LoadResult> =>
  load(`${svc.url}/proxy/people.email.verify`, {
    ...opts,
    method: 'POST',
    server: svc.pid,
    headers: { 'x-svc-token': svc.token, 'content-type': 'application/json' },
    body: (n) => JSON.stringify({ email: `${round}.jane${n}@acme.com` }),
  });

/** The floor for a Node server: answers a preloaded buffer, nothing else. */
export async function bareServer(body: Buffer): Promise<{ url: string; server: Server }> {
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': body.length });
    res.end(body);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

/**
 * The catalog a routed bench serves, built into `dir`/catalog: the fixture's (people.email.verify has
 * 3 children) or, with BENCH_CATALOG=real, the one `npm start` serves, where every provider is keyed
 * and pointed at the bench's upstream as `npm run demo` does, so each plan weighs all 24 children of
 * people.email.verify, as a deployment keyed for many providers does. Answers the catalog in words.
 */
export async function buildBenchCatalog(dir: string): Promise<string> {
  const real = process.env.BENCH_CATALOG === 'real';
  const src = real ? join(import.meta.dirname, '..', 'catalog-src') : join(import.meta.dirname, '..', 'test', 'fixtures', 'catalog-src');
  const built = await buildCatalog({ src, out: join(dir, 'catalog') });
  if (built.errors.length) throw new Error(built.errors.join('\n'));
  return real ? 'the real catalog, every provider keyed' : 'the fixture catalog';
}

const roles: ChildProcess[] = [];

export interface RoleOptions {
  storage: string;
  /** write CPU profiles of svc and of the bare forwarders to bench/profiles/<role>/ */
  profile?: boolean;
  /** another checkout of svc (built) to start instead */
  root?: string;
  /** added to svc's environment */
  env?: Record<string, string>;
  /** more arguments for node */
  nodeArgs?: string[];
  /** a file descriptor that gets everything the role writes to its standard output */
  stdout?: number;
}

/** a started server: what it printed (its url, svc's token) and its pid */
export type Role = Record<string, string> & { pid: number };

/**
 * One server in its own process (so servers and the load generator do not share an event loop):
 * `svc` as `npm start` runs it, `arg` its upstream; any other role is one of bench/routed-servers.ts.
 * Answers the JSON line the role prints, with its pid.
 */
export async function startRole(role: string, arg: string, dist: string, opts: RoleOptions): Promise<Role> {
  const profile =
    opts.profile && (role === 'svc' || role.startsWith('forwarder')) ? ['--cpu-prof', `--cpu-prof-dir=${join(import.meta.dirname, 'profiles', role)}`] : [];
  const nodeArgs = [...profile, ...(opts.nodeArgs ?? [])];
  const storage = opts.storage === 'memory' ? 'memory:' : opts.storage === 'embedded' ? `fs:${mkdtempSync(join(tmpdir(), 'svc-routed-data-'))}` : opts.storage;
  if (role === 'svc') {
    const svc = await npmStart(dist, arg, storage, { nodeArgs, root: opts.root, env: opts.env, stdout: opts.stdout });
    roles.push(svc.child);
    const said: Record<string, string> = { url: svc.url, token: svc.token };
    return Object.assign(said, { pid: svc.pid });
  }
  const child = spawn(process.execPath, [...nodeArgs, '--import', 'tsx', join(import.meta.dirname, 'routed-servers.ts'), role, arg, dist], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  roles.push(child);
  // the role's JSON line is the first line that is JSON: node's own tracing may come before it
  let out: string | null = '';
  return new Promise((resolve) => {
    child.stdout!.on('data', (d: Buffer) => {
      if (opts.stdout !== undefined) writeSync(opts.stdout, d);
      if (out === null) return;
      out += d.toString();
      const said = out.split('\n').find((l) => l.startsWith('{') && l.endsWith('}'));
      if (said) {
        out = null;
        resolve(Object.assign(JSON.parse(said) as Record<string, string>, { pid: child.pid! }));
      }
    });
  });
}

/** stop every started role; SIGINT lets a profiled svc write its profile */
export function stopRoles(profile = false): void {
  for (const child of roles) child.kill(profile ? 'SIGINT' : 'SIGTERM');
}

/**
 * Queries per CPU-second of svc's search (FlexSearch + ranking) and of a raw FlexSearch loop over the
 * same operations index, alternated over 7 rounds so GC and drift fall on both alike; medians. CPU
 * time, not wall time: other processes on the machine stretch the wall clock of one loop, not its CPU.
 */
export function searchThroughput(search: SearchEngine, queries: string[], rounds = 4_000): { rawQps: number; oursQps: number } {
  const raw = (search as unknown as { index: { search(q: string, o: object): unknown } }).index;
  const loop = (fn: (q: string) => unknown) => {
    const t = process.cpuUsage();
    for (let i = 0; i < rounds; i++) fn(queries[i % queries.length]);
    const used = process.cpuUsage(t);
    return rounds / ((used.user + used.system) / 1e6);
  };
  const rawQuery = (q: string) => raw.search(q, { limit: 50, suggest: true });
  const ourQuery = (q: string) => search.search(q, 25, () => false);
  loop(rawQuery);
  loop(ourQuery); // warm both
  const rawRuns: number[] = [];
  const ourRuns: number[] = [];
  for (let r = 0; r < 7; r++) {
    rawRuns.push(loop(rawQuery));
    ourRuns.push(loop(ourQuery));
  }
  return { rawQps: median(rawRuns), oursQps: median(ourRuns) };
}

/** the embedded storage in words, with its ledger sync setting (SVC_LEDGER_SYNC_MS passes through to svc) */
export const storageWords = (): string => {
  const ms = process.env.SVC_LEDGER_SYNC_MS;
  return `embedded files, ledger ${ms === '0' ? 'synced at each write' : `synced within ${ms ?? LEDGER_SYNC_MS} ms`}`;
};
