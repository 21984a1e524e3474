// `npm run bench -- start`: `npm start` itself, its command without npm (plain node, one process),
// and the baseline, a bare node:http server started by the same node: time from spawn to the first
// /meta answer (median of 5 starts, alternating, catalog already built), the server's CPU to it, and
// resident memory after that answer and after a burst of catalog reads, with the real catalog and
// 10,000 operations.
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { compileServer } from '../bin/compile-server.js';
import { buildCatalog } from '../build/pipeline.ts';
import { generateCatalog } from './generate-catalog.ts';
import { cpuUs, fmt, line, median } from './lib.ts';
import { npmStartArgs, servable } from './npm-start.ts';

const ROOT = join(import.meta.dirname, '..');
const tmp = mkdtempSync(join(tmpdir(), 'svc-bench-start-'));
// `npm start` without npm: `node <flags> bin/start.js`, which checks the compiled server is fresh, then runs it
const npmStart = npmStartArgs();
/** the floor: node itself starting a server that answers /meta */
const BARE = "require('node:http').createServer((q, s) => s.end('{}')).listen(Number(process.env.PORT), '127.0.0.1', function () { process.stderr.write('listening on http://127.0.0.1:' + this.address().port + '\\n'); })";
const STARTS = { 'npm start': ['npm', 'start', '--silent'], node: [process.execPath, ...npmStart], bare: [process.execPath, '-e', BARE] };
type How = keyof typeof STARTS;

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
  const kids = (p: number): number[] => {
    try {
      return readFileSync(`/proc/${p}/task/${p}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
    } catch {
      return [];
    }
  };
  const tree = (p: number): number[] => [p, ...kids(p).flatMap(tree)];
  const rssKb = (p: number): number => {
    try {
      return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${p}/status`, 'utf8'))?.[1] ?? 0);
    } catch {
      return 0; // gone between the listing and the read (npm's shell)
    }
  };
  const kb = tree(pid).reduce((sum, p) => sum + rssKb(p), 0);
  return kb / 1024;
}

interface Start { ms: number; cpuMs: number | null; rssMeta: number; rssReads: number }

async function startOnce(how: How, dist: string): Promise<Start> {
  const [cmd, ...args] = STARTS[how];
  const t0 = performance.now();
  const child = spawn(cmd, args, { cwd: ROOT, env: { PATH: process.env.PATH, HOME: process.env.HOME, PORT: '0', SVC_STORAGE: 'memory:', SVC_DIST_DIR: dist, SVC_SECRET: 'bench' }, stdio: ['ignore', 'ignore', 'pipe'] });
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
  child.kill('SIGTERM');
  await new Promise((r) => child.once('exit', r));
  return { ms, cpuMs, rssMeta, rssReads };
}

async function measure(label: string, dist: string, rssTarget: number): Promise<void> {
  const hows = Object.keys(STARTS) as How[];
  const runs = Object.fromEntries(hows.map((h) => [h, [] as Start[]])) as Record<How, Start[]>;
  for (let i = 0; i < 5; i++) for (const how of hows) runs[how].push(await startOnce(how, dist));
  const ms = (how: How) => median(runs[how].map((r) => r.ms));
  for (const how of hows) {
    line(`${label}: ${how} to first /meta (median of 5)`, `${fmt(ms(how), 0)} ms`, how === 'npm start' ? '<= 450 ms' : undefined, ms(how) <= 450);
    const cpus = runs[how].flatMap((r) => (r.cpuMs === null ? [] : [r.cpuMs]));
    if (cpus.length) line(`${label}: ${how} CPU to first /meta (median, range)`, `${fmt(median(cpus), 0)} ms (${fmt(Math.min(...cpus), 0)}-${fmt(Math.max(...cpus), 0)})`);
  }
  line(`${label}: node start / bare node:http start`, `${fmt(ms('node') / ms('bare'))}x`);
  for (const how of ['node', 'bare'] as const) {
    line(`${label}: ${how} RSS after /meta (median)`, `${fmt(median(runs[how].map((r) => r.rssMeta)), 0)} MB`);
    const reads = median(runs[how].map((r) => r.rssReads));
    line(`${label}: ${how} RSS after 400 searches (median)`, `${fmt(reads, 0)} MB`, how === 'node' ? `<= ${rssTarget} MB` : undefined, reads <= rssTarget);
  }
}

const load = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
process.stdout.write(`start benchmarks (npm start; node: node ${npmStart.join(' ')}, one process; bare: a node:http server); load average ${load()}\n`);
const real = await buildCatalog({ src: join(ROOT, 'catalog-src'), out: join(tmp, 'real') });
if (real.errors.length) throw new Error(real.errors.join('\n'));
await measure(`real catalog (${real.operations} ops)`, distWith(join(tmp, 'real')), 80);
const genSrc = join(tmp, 'gen-src');
generateCatalog(genSrc, 500);
const gen = await buildCatalog({ src: genSrc, out: join(tmp, 'gen') });
if (gen.errors.length) throw new Error(gen.errors.join('\n'));
await measure(`generated (${gen.operations} ops)`, distWith(join(tmp, 'gen')), 150);
process.stdout.write(`load average at the end: ${load()}\n`);
