// `npm run bench -- start`: the compiled server as `npm start` runs it (plain node with the start
// script's flags, one process) against the tsx start: time and CPU from spawn to the first /meta
// answer (median of 5 starts, catalog already built) and resident memory after that answer and after
// a burst of catalog reads, with the real catalog and 10,000 operations.
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
const STARTS = { compiled: [process.execPath, ...npmStart], tsx: [join(ROOT, 'node_modules', '.bin', 'tsx'), 'runtime/start.ts'] };

if (!existsSync(join(ROOT, 'dist', 'index.html'))) throw new Error('run `npm run build` first: the starts measured here build nothing');
await compileServer(); // into dist-server/: the packages it imports resolve from the checkout's node_modules

/** a dist dir with `catalogOut`'s catalog and the built dashboard, which a start serves as is */
function distWith(catalogOut: string): string {
  const dist = join(tmp, `dist-${readdirSync(tmp).length}`);
  cpSync(catalogOut, join(dist, 'catalog'), { recursive: true });
  return servable(dist);
}

/** resident memory of a process and its children (tsx runs the server in a child), in MB */
function rssMb(pid: number): number {
  const kids = (p: number): number[] => {
    try {
      return readFileSync(`/proc/${p}/task/${p}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
    } catch {
      return [];
    }
  };
  const tree = (p: number): number[] => [p, ...kids(p).flatMap(tree)];
  const kb = tree(pid).reduce((sum, p) => sum + Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${p}/status`, 'utf8'))?.[1] ?? 0), 0);
  return kb / 1024;
}

interface Start { ms: number; cpuMs: number | null; rssMeta: number; rssReads: number }

async function startOnce(how: keyof typeof STARTS, dist: string): Promise<Start> {
  const [cmd, ...args] = STARTS[how];
  const t0 = performance.now();
  const child = spawn(cmd, args, { cwd: ROOT, env: { PATH: process.env.PATH, PORT: '0', SVC_STORAGE: 'memory:', SVC_DIST_DIR: dist, SVC_SECRET: 'bench' }, stdio: ['ignore', 'ignore', 'pipe'] });
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
  const cpu = cpuUs(child.pid!); // the compiled server's own CPU (the tsx start's is its launcher's): a figure other load sways less
  const cpuMs = how === 'compiled' && cpu !== null ? cpu / 1000 : null;
  const rssMeta = rssMb(child.pid!);
  const words = ['email', 'company', 'phone', 'verify', 'linkedin profile', 'news', 'jobs', 'reviews', 'domain search', 'people'];
  for (let i = 0; i < 400; i++) await (await fetch(`${base}/catalog/search?q=${encodeURIComponent(words[i % words.length])}`)).arrayBuffer();
  const rssReads = rssMb(child.pid!);
  child.kill('SIGTERM');
  await new Promise((r) => child.once('exit', r));
  return { ms, cpuMs, rssMeta, rssReads };
}

async function measure(label: string, dist: string, rssTarget: number): Promise<void> {
  const runs: Record<keyof typeof STARTS, Start[]> = { compiled: [], tsx: [] };
  for (let i = 0; i < 5; i++) for (const how of ['compiled', 'tsx'] as const) runs[how].push(await startOnce(how, dist));
  for (const how of ['compiled', 'tsx'] as const) {
    const ms = median(runs[how].map((r) => r.ms));
    line(`${label}: ${how} start to first /meta (median of 5)`, `${fmt(ms, 0)} ms`, how === 'compiled' ? '< 300 ms' : undefined, ms < 300);
    const cpus = runs[how].flatMap((r) => (r.cpuMs === null ? [] : [r.cpuMs]));
    if (cpus.length) line(`${label}: ${how} CPU to first /meta (median, range)`, `${fmt(median(cpus), 0)} ms (${fmt(Math.min(...cpus), 0)}-${fmt(Math.max(...cpus), 0)})`);
    const meta = median(runs[how].map((r) => r.rssMeta));
    const reads = median(runs[how].map((r) => r.rssReads));
    line(`${label}: ${how} RSS after /meta`, `${fmt(meta, 0)} MB`);
    line(`${label}: ${how} RSS after 400 searches`, `${fmt(reads, 0)} MB`, how === 'compiled' ? `< ${rssTarget} MB` : undefined, reads < rssTarget);
  }
}

const load = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
process.stdout.write(`start benchmarks (compiled: node ${npmStart.join(' ')}, one process; tsx: tsx runtime/start.ts, two); load average ${load()}\n`);
const real = await buildCatalog({ src: join(ROOT, 'catalog-src'), out: join(tmp, 'real') });
if (real.errors.length) throw new Error(real.errors.join('\n'));
await measure(`real catalog (${real.operations} ops)`, distWith(join(tmp, 'real')), 80);
const genSrc = join(tmp, 'gen-src');
generateCatalog(genSrc, 500);
const gen = await buildCatalog({ src: genSrc, out: join(tmp, 'gen') });
if (gen.errors.length) throw new Error(gen.errors.join('\n'));
await measure(`generated (${gen.operations} ops)`, distWith(join(tmp, 'gen')), 150);
process.stdout.write(`load average at the end: ${load()}\n`);
