// The compiled server as `npm start` runs it: plain node, no tsx, one process, answering /meta and /healthz.
import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { compileServer, serverFresh } from '../../bin/compile-server.js';
import { dashboardSourceHash } from '../../build/dashboard.ts';
import { REAL_DIST, ROOT } from '../helpers/paths.ts';

const tmp = mkdtempSync(join(tmpdir(), 'svc-compiled-'));
const out = join(ROOT, '.test-dist', 'server');
let child: ChildProcess | undefined;

beforeAll(async () => {
  rmSync(out, { recursive: true, force: true });
  expect(serverFresh(out)).toBe(false); // missing: npm start compiles first
  await compileServer(out);
  expect(serverFresh(out)).toBe(true); // compiled after every source: npm start runs it as is
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

it('starts with plain node and answers /meta and /healthz', async () => {
  child = spawn(process.execPath, [join(out, 'start.js')], {
    cwd: ROOT,
    env: { PATH: process.env.PATH, NODE_ENV: 'test', PORT: '0', SVC_STORAGE: 'memory:', SVC_DIST_DIR: join(tmp, 'dist'), SVC_SECRET: 'compiled-secret' },
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
  const meta = await (await fetch(`http://127.0.0.1:${port}/meta`)).json() as { svc_version: string; catalog: { operations: number } };
  const pkg = await import('../../package.json', { with: { type: 'json' } });
  expect(meta.svc_version).toBe(pkg.default.version); // the JSON import made it into the bundle
  expect(meta.catalog.operations).toBeGreaterThan(400);
  const health = await fetch(`http://127.0.0.1:${port}/healthz`);
  expect(health.status).toBe(200);
});
