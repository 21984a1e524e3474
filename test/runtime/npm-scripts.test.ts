// `npm start` and `npm run demo` stopped as an operator or a terminal stops them, with real processes
// and real signals: SIGTERM to npm alone stops the server it started (port and lock given back), and
// Ctrl-C (SIGINT to the whole process group) leaves no demo state behind, every time.
import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lockDataDir } from '../../runtime/state/dir-lock.ts';
import { REAL_DIST, ROOT } from '../helpers/paths.ts';

const tmp = mkdtempSync(join(tmpdir(), 'svc-npm-'));
const dist = join(tmp, 'dist');
const groups: ChildProcess[] = [];
beforeAll(() => {
  cpSync(join(REAL_DIST, 'catalog'), join(dist, 'catalog'), { recursive: true });
});
afterAll(() => {
  for (const c of groups)
    if (c.pid)
      try {
        process.kill(-c.pid, 'SIGKILL');
      } catch {
        /* already gone */
      }
  rmSync(tmp, { recursive: true, force: true });
});

/** `npm run <script>` in a process group of its own (as a terminal runs it); resolves once `ready` matches its output */
async function npm(
  script: string[],
  env: Record<string, string>,
  ready: RegExp,
): Promise<{ child: ChildProcess; output: () => string; exited: Promise<number | null> }> {
  const child = spawn('npm', script, {
    cwd: ROOT,
    detached: true,
    env: { PATH: process.env.PATH, HOME: process.env.HOME ?? tmp, SVC_DIST_DIR: dist, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  groups.push(child);
  let text = '';
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  await new Promise<void>((resolve, reject) => {
    const look = (d: Buffer) => {
      text += d.toString();
      if (ready.test(text)) resolve();
    };
    child.stdout!.on('data', look);
    child.stderr!.on('data', look);
    void exited.then(() => reject(new Error(`npm ${script.join(' ')} ended before it was ready:\n${text}`)));
  });
  return { child, output: () => text, exited };
}

const refused = (port: number) =>
  new Promise<boolean>((resolve) => {
    const s = connect(port, '127.0.0.1');
    s.once('connect', () => {
      s.destroy();
      resolve(false);
    });
    s.once('error', () => resolve(true));
  });

/** true once no process of the group `pid` leads is left */
const groupGone = (pid: number) => () => {
  try {
    process.kill(-pid, 0);
    return false;
  } catch {
    return true;
  }
};

async function until(check: () => Promise<boolean> | boolean): Promise<void> {
  while (!(await check())) await new Promise((r) => setTimeout(r, 100));
}

describe('npm start', () => {
  it('stops the server it started when npm alone gets SIGTERM: the port and the data directory are free', async () => {
    const data = join(tmp, 'start-data');
    const s = await npm(['start'], { PORT: '0', SVC_DATA_DIR: data, SVC_SECRET: 'npm-secret' }, /svc listening on http:\/\/127\.0\.0\.1:(\d+)/);
    const port = Number(/svc listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(s.output())![1]);
    expect((await fetch(`http://127.0.0.1:${port}/healthz`)).status).toBe(200);
    process.kill(s.child.pid!, 'SIGTERM'); // npm only, as a service manager or `kill <npm pid>` does
    await s.exited;
    await until(() => refused(port));
    await until(() => s.output().includes('svc: the npm script that started svc has ended: finishing calls in flight'));
    // the lock is free: this process takes it (the server is gone, not merely deaf)
    await until(async () => {
      try {
        (await lockDataDir(data))();
        return true;
      } catch {
        return false;
      }
    });
  }, 240_000);
});

describe('npm run demo', () => {
  it.each([1, 2, 3])(
    'Ctrl-C (SIGINT to the process group) removes its fresh state directory (run %i)',
    async () => {
      const d = await npm(['run', 'demo'], { PORT: '0', SVC_SANDBOX_PORT: '0' }, /^token: svc_/m);
      const state = /^state: (\S+) \(fresh/m.exec(d.output())![1];
      expect(existsSync(state)).toBe(true);
      process.kill(-d.child.pid!, 'SIGINT');
      await d.exited;
      // every process of the group is gone, and so is the directory
      await until(groupGone(d.child.pid!));
      expect(existsSync(state)).toBe(false);
    },
    240_000,
  );

  it('SIGTERM to npm alone also stops the demo and removes its state', async () => {
    const d = await npm(['run', 'demo'], { PORT: '0', SVC_SANDBOX_PORT: '0' }, /^token: svc_/m);
    const state = /^state: (\S+) \(fresh/m.exec(d.output())![1];
    process.kill(d.child.pid!, 'SIGTERM');
    await until(groupGone(d.child.pid!));
    expect(existsSync(state)).toBe(false);
  }, 240_000);
});
