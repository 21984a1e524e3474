// The compiled server as `npm start` runs it: plain node, no tsx, one process, answering /meta and
// /healthz, and the parts it loads on first use rather than at start (the search index, ajv, the MCP
// SDK, undici) working from the compiled files, undici not among what a start imports.
import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { compileServer, serverFresh } from '../../bin/compile-server.js';
import { dashboardSourceHash } from '../../build/dashboard.ts';
import { REAL_DIST, ROOT } from '../helpers/paths.ts';
import { childrenOf } from '../helpers/ran.ts';

const tmp = mkdtempSync(join(tmpdir(), 'svc-compiled-'));
const ADMIN = 'compiled-admin-token';
const out = join(ROOT, '.test-dist', 'server');
let child: ChildProcess | undefined;

beforeAll(async () => {
  rmSync(out, { recursive: true, force: true });
  expect(serverFresh(out)).toBe(false); // missing: npm start compiles first
  await compileServer(out);
  expect(serverFresh(out)).toBe(true); // compiled after every source: npm start runs it as is
  // the compiler's service was stopped with the compile: it ends (left running, it would live as long as this process)
  while (childrenOf(process.pid).includes('esbuild')) await new Promise((r) => setTimeout(r, 20));
  cpSync(join(REAL_DIST, 'catalog'), join(tmp, 'dist', 'catalog'), { recursive: true });
  // a dashboard marked fresh, so the start serves at once instead of running vite (lifecycle.test.ts builds a real one)
  mkdirSync(join(tmp, 'dist'), { recursive: true });
  writeFileSync(join(tmp, 'dist', 'index.html'), '<!doctype html><title>svc</title>');
  writeFileSync(join(tmp, 'dist', '.dashboard-hash'), dashboardSourceHash());
});
afterAll(() => {
  child?.kill('SIGKILL');
  rmSync(tmp, { recursive: true, force: true });
});

it('starts with plain node, answers /meta and /healthz, and loads search, ajv and MCP on first use', async () => {
  child = spawn(process.execPath, [join(out, 'start.js')], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH,
      NODE_ENV: 'test',
      PORT: '0',
      SVC_STORAGE: 'memory:',
      SVC_DIST_DIR: join(tmp, 'dist'),
      SVC_SECRET: 'compiled-secret',
      SVC_ADMIN_TOKEN: ADMIN,
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let err = '';
  const port = await new Promise<number>((resolve, reject) => {
    child!.stderr!.on('data', (d: Buffer) => {
      err += d.toString();
      const m = /svc listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(err);
      if (m) resolve(Number(m[1]));
    });
    child!.once('exit', (code) => reject(new Error(`exited ${code}: ${err}`)));
  });
  const base = `http://127.0.0.1:${port}`;
  // sent the moment the server listens, while its search index loads: the search waits for it
  const early = fetch(`${base}/catalog/search?q=verify%20email`);
  const meta = (await (await fetch(`${base}/meta`)).json()) as { svc_version: string; catalog: { operations: number } };
  const pkg = await import('../../package.json', { with: { type: 'json' } });
  expect(meta.svc_version).toBe(pkg.default.version); // the JSON import made it into the bundle
  expect(meta.catalog.operations).toBeGreaterThan(400);
  const health = await fetch(`${base}/healthz`);
  expect(health.status).toBe(200);

  const search = await early;
  expect(search.status).toBe(200);
  expect(((await search.json()) as { results: Array<{ capability: string }> }).results[0].capability).toBe('people.email.verify');
  expect((await fetch(`${base}/catalog/search?limit=0`)).status).toBe(422); // ajv, loaded from the compiled code's place

  const post = (path: string, body: unknown, headers: Record<string, string>) =>
    fetch(`${base}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
      body: JSON.stringify(body),
    });
  const team = (await (await post('/admin/teams', { name: 'Compiled' }, { 'x-svc-admin': ADMIN })).json()) as { token: string };
  const listed = await post('/mcp', { jsonrpc: '2.0', id: 1, method: 'tools/list' }, { authorization: `Bearer ${team.token}` });
  expect(listed.status).toBe(200);
  const { result } = (await listed.json()) as { result: { tools: Array<{ name: string }> } };
  expect(result.tools.map((t) => t.name)).toContain('search_catalog'); // the MCP SDK's chunk, loaded on this first call
});

it("writes its JavaScript in ASCII, so V8 holds each module's source at one byte a character", () => {
  const js = readdirSync(out).filter((f) => f.endsWith('.js'));
  expect(js).toContain('start.js');
  expect(js.filter((f) => /[\u0080-\uffff]/.test(readFileSync(join(out, f), 'utf8')))).toEqual([]);
});

it('leaves undici out of the modules a start imports (the first provider call loads it)', () => {
  // start.js and the chunks it imports statically, and theirs: what node loads before serving
  const loaded = new Set<string>();
  const visit = (file: string) => {
    if (loaded.has(file)) return;
    loaded.add(file);
    const code = readFileSync(join(out, file), 'utf8');
    for (const [, chunk] of code.matchAll(/^import\s(?:[^;]*?from\s*)?"\.\/([^"]+)";?$/gm)) visit(chunk);
  };
  visit('start.js');
  expect(loaded.size).toBeGreaterThan(1); // the shared chunks were followed
  const statically = [...loaded].filter((f) => /^import\s[^;]*?from\s*"undici";?$/m.test(readFileSync(join(out, f), 'utf8')));
  expect(statically).toEqual([]);
  // loaded on first use instead
  expect([...loaded].some((f) => readFileSync(join(out, f), 'utf8').includes('import("undici")'))).toBe(true);
});
