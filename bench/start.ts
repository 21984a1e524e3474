// `npm run bench -- start`: `npm start` itself, its command without npm (plain node, one process),
// and the baselines, a bare node:http server and the same through h3, started by the same node: time from spawn to the first
// /meta answer (median of 5 starts, alternating, catalog already built), the server's CPU to it, and
// resident memory after that answer and after a burst of catalog reads, with the real catalog and
// 10,000 operations; with the real catalog, also after 200 routed calls that follow the searches
// (against the provider sandbox), so a saving that only defers work to the first routed call shows,
// and, in one start each of svc and bare h3, once the server has been idle for 30 s after the searches.
// BENCH_BEFORE=<another checkout, built> starts that checkout's server in the same rounds (`before`).
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { compileServer } from '../bin/compile-server.js';
import { loadRuntime } from '../runtime/catalog/dist.ts';
import { sandboxEnv } from '../sandbox/svc-env.ts';
import { buildCatalog } from '../build/pipeline.ts';
import { generateCatalog } from './generate-catalog.ts';
import { cpuUs, fmt, line, median, startRole, stopRoles } from './lib.ts';
import { npmStartArgs, servable } from './npm-start.ts';
import { childPids, residentMb } from '../test/helpers/ran.ts';

const ROOT = join(import.meta.dirname, '..');
const tmp = mkdtempSync(join(tmpdir(), 'svc-bench-start-'));
// `npm start` without npm: `node <flags> bin/start.js`, which checks the compiled server is fresh, then runs it
const npmStart = npmStartArgs();
/** the floor: node itself starting a server that answers /meta */
const BARE =
  "require('node:http').createServer((q, s) => s.end('{}')).listen(Number(process.env.PORT), '127.0.0.1', function () { process.stderr.write('listening on http://127.0.0.1:' + this.address().port + '\\n'); })";
/** the floor of the library route: the same server through h3 and its Node adapter, which loads Node's web Request/Response at import */
const BARE_H3 =
  "import('node:http').then(async ({ createServer }) => { const { H3 } = await import('h3'); const { toNodeHandler } = await import('h3/node'); createServer(toNodeHandler(new H3().all('/**', () => ({})))).listen(Number(process.env.PORT), '127.0.0.1', function () { process.stderr.write('listening on http://127.0.0.1:' + this.address().port + '\\n'); }); })";
const BEFORE = process.env.BENCH_BEFORE;
const STARTS: Record<string, { cmd: string[]; cwd: string }> = {
  'npm start': { cmd: ['npm', 'start', '--silent'], cwd: ROOT },
  node: { cmd: [process.execPath, ...npmStart], cwd: ROOT },
  ...(BEFORE ? { before: { cmd: [process.execPath, ...npmStartArgs(BEFORE)], cwd: BEFORE } } : {}),
  bare: { cmd: [process.execPath, '-e', BARE], cwd: ROOT },
  'bare h3': { cmd: [process.execPath, '--input-type=module', '-e', BARE_H3], cwd: ROOT },
};
type How = keyof typeof STARTS;
/** the starts that run svc's own server in one process: their CPU and memory are read */
const SERVERS = ['node', ...(BEFORE ? ['before'] : [])];
const ADMIN = 'bench-admin';
const ROUTED_CALLS = 200;

if (!existsSync(join(ROOT, 'dist', 'index.html'))) throw new Error('run `npm run build` first: the starts measured here build nothing');
await compileServer(); // into dist-server/: the packages it imports resolve from the checkout's node_modules

/** a dist dir with `catalogOut`'s catalog and the built dashboard, which a start serves as is */
function distWith(catalogOut: string): string {
  const dist = join(tmp, `dist-${readdirSync(tmp).length}`);
  cpSync(catalogOut, join(dist, 'catalog'), { recursive: true });
  return servable(dist);
}

/** resident memory of a process and its children (npm runs the server in a child), in MB */
function rssMb(pid: number): number {
  const tree = (p: number): number[] => [p, ...childPids(p).flatMap(tree)];
  const rss = (p: number): number => {
    try {
      return residentMb(p);
    } catch {
      return 0; // gone between the listing and the read (npm's shell)
    }
  };
  return tree(pid).reduce((sum, p) => sum + rss(p), 0);
}

interface Start {
  ms: number;
  cpuMs: number | null;
  rssMeta: number;
  rssReads: number;
  rssRouted: number | null;
  /** RSS once the server has been idle IDLE_S seconds after the searches (an idle start only) */
  rssIdle: number | null;
}
/**
 * V8 gives memory back on its own once a process stops allocating (its memory reducer runs a
 * collection that shrinks the young generation some seconds after the last burst): a server at
 * rest, read this long after its searches
 */
const IDLE_S = 30;
/** a sandbox serving every provider of the catalog, and the environment pointing svc at it */
interface Upstream {
  env: Record<string, string>;
}

/** `routed` calls to people.email.verify, each for a new address (identical calls would be merged) */
async function routedCalls(base: string, calls: number): Promise<void> {
  const r = await fetch(`${base}/admin/teams`, {
    method: 'POST',
    headers: { 'x-svc-admin': ADMIN, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'bench', credit_usd: 1_000 }),
  });
  if (r.status !== 201) throw new Error(`team not made: ${r.status} ${await r.text()}`);
  const { token } = (await r.json()) as { token: string };
  for (let i = 0; i < calls; i++) {
    const call = await fetch(`${base}/proxy/people.email.verify`, {
      method: 'POST',
      headers: { 'x-svc-token': token, 'content-type': 'application/json' },
      body: JSON.stringify({ email: `jane${i}@acme.com` }),
    });
    if (!call.ok) throw new Error(`routed call answered ${call.status}: ${await call.text()}`);
    await call.arrayBuffer();
  }
}

async function startOnce(how: How, dist: string, upstream: Upstream | null, idle = false): Promise<Start> {
  const [cmd, ...args] = STARTS[how].cmd;
  const t0 = performance.now();
  const routes = upstream !== null && SERVERS.includes(how);
  const env = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    PORT: '0',
    SVC_STORAGE: 'memory:',
    SVC_DIST_DIR: dist,
    SVC_SECRET: 'bench',
    ...(routes ? { ...upstream.env, SVC_ADMIN_TOKEN: ADMIN } : {}),
  };
  const child = spawn(cmd, args, { cwd: STARTS[how].cwd, env, stdio: ['ignore', 'ignore', 'pipe'] });
  let err = '';
  const port = await new Promise<number>((resolve, reject) => {
    child.stderr.on('data', (d: Buffer) => {
      err += d.toString();
      const m = /listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(err);
      if (m) resolve(Number(m[1]));
    });
    child.once('exit', (code) => reject(new Error(`${how} exited ${code}: ${err}`)));
  });
  const base = `http://127.0.0.1:${port}`;
  if (!(await fetch(`${base}/meta`)).ok) throw new Error('/meta failed');
  const ms = performance.now() - t0;
  const cpu = cpuUs(child.pid!); // the server's own CPU (npm start's is npm's): a figure other load sways less
  const cpuMs = how !== 'npm start' && cpu !== null ? cpu / 1000 : null;
  const rssMeta = rssMb(child.pid!);
  const words = ['email', 'company', 'phone', 'verify', 'linkedin profile', 'news', 'jobs', 'reviews', 'domain search', 'people'];
  for (let i = 0; i < 400; i++) await (await fetch(`${base}/catalog/search?q=${encodeURIComponent(words[i % words.length])}`)).arrayBuffer();
  const rssReads = rssMb(child.pid!);
  if (idle) await new Promise((r) => setTimeout(r, IDLE_S * 1000));
  const rssIdle = idle ? rssMb(child.pid!) : null;
  const routed = routes && !idle;
  if (routed) await routedCalls(base, ROUTED_CALLS);
  const rssRouted = routed ? rssMb(child.pid!) : null;
  child.kill('SIGTERM');
  await new Promise((r) => child.once('exit', r));
  return { ms, cpuMs, rssMeta, rssReads, rssRouted, rssIdle };
}

async function measure(label: string, dist: string, rssTarget: number, upstream: Upstream | null = null, idle = false): Promise<void> {
  const hows = Object.keys(STARTS) as How[];
  const runs = Object.fromEntries(hows.map((h) => [h, [] as Start[]])) as Record<How, Start[]>;
  for (let i = 0; i < 5; i++) for (const how of hows) runs[how].push(await startOnce(how, dist, upstream));
  const ms = (how: How) => median(runs[how].map((r) => r.ms));
  for (const how of hows) {
    line(`${label}: ${how} to first /meta (median of 5)`, `${fmt(ms(how), 0)} ms`, how === 'npm start' ? '<= 450 ms' : undefined, ms(how) <= 450);
    const cpus = runs[how].flatMap((r) => (r.cpuMs === null ? [] : [r.cpuMs]));
    if (cpus.length)
      line(`${label}: ${how} CPU to first /meta (median, range)`, `${fmt(median(cpus), 0)} ms (${fmt(Math.min(...cpus), 0)}-${fmt(Math.max(...cpus), 0)})`);
  }
  line(`${label}: node start / bare node:http start`, `${fmt(ms('node') / ms('bare'))}x`);
  for (const how of [...SERVERS, 'bare', 'bare h3']) {
    line(`${label}: ${how} RSS after /meta (median)`, `${fmt(median(runs[how].map((r) => r.rssMeta)), 0)} MB`);
    const reads = median(runs[how].map((r) => r.rssReads));
    line(`${label}: ${how} RSS after 400 searches (median)`, `${fmt(reads, 0)} MB`, how === 'node' ? `<= ${rssTarget} MB` : undefined, reads <= rssTarget);
    const routed = runs[how].flatMap((r) => (r.rssRouted === null ? [] : [r.rssRouted]));
    if (routed.length) line(`${label}: ${how} RSS after the searches and ${ROUTED_CALLS} routed calls (median)`, `${fmt(median(routed), 0)} MB`);
  }
  const searched = (how: How) => median(runs[how].map((r) => r.rssReads));
  line(`${label}: svc's own RSS after the searches, over a bare h3 server's (median)`, `${fmt(searched('node') - searched('bare h3'), 0)} MB`);
  if (!idle) return;
  for (const how of ['node', 'bare h3'] as const) {
    const { rssReads, rssIdle } = await startOnce(how, dist, upstream, true);
    line(`${label}: ${how} RSS after the searches, then ${IDLE_S} s idle (one start)`, `${fmt(rssReads, 0)} MB, then ${fmt(rssIdle!, 0)} MB`);
  }
}

const load = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
process.stdout.write(`start benchmarks (npm start; node: node ${npmStart.join(' ')}, one process; bare: a node:http server); load average ${load()}\n`);
const real = await buildCatalog({ src: join(ROOT, 'catalog-src'), out: join(tmp, 'real') });
if (real.errors.length) throw new Error(real.errors.join('\n'));
const realDist = distWith(join(tmp, 'real'));
const runtime = loadRuntime(realDist);
const sandbox = await startRole('sandbox', '', realDist, { storage: 'memory' });
await measure(
  `real catalog (${real.operations} ops)`,
  realDist,
  80,
  { env: sandboxEnv(runtime, sandbox.url, sandbox.keys as unknown as Record<string, string>) },
  true,
);
stopRoles();
const genSrc = join(tmp, 'gen-src');
generateCatalog(genSrc, 500);
const gen = await buildCatalog({ src: genSrc, out: join(tmp, 'gen') });
if (gen.errors.length) throw new Error(gen.errors.join('\n'));
await measure(`generated (${gen.operations} ops)`, distWith(join(tmp, 'gen')), 150);
process.stdout.write(`load average at the end: ${load()}\n`);
