// `npm run demo` from the outside: it prints a token and three commands, and each works as pasted.
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REAL_DIST, ROOT } from '../helpers/paths.ts';
import { ranToExit } from '../helpers/ran.ts';
import { suiteRedis } from '../helpers/redis.ts';

const redis = suiteRedis();

let child: ChildProcess;
let out = '';
const port = 18000 + Math.floor(Math.random() * 2000);

beforeAll(async () => {
  child = spawn(process.execPath, ['bin/demo.js'], {
    cwd: ROOT,
    env: { ...process.env, PORT: String(port), SVC_SANDBOX_PORT: String(port + 1), SVC_DIST_DIR: REAL_DIST, SVC_DATA_DIR: '', SVC_STORAGE: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (d: Buffer) => {
    out += d.toString();
  });
  const t0 = Date.now();
  while (!/^curl .*Dry-Run/m.test(out)) {
    if (Date.now() - t0 > 60_000) throw new Error(`demo did not start:\n${out}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}, 70_000);
/** Another demo on free ports with `env`, once it has printed its commands. */
async function demoUntilCommands(env: Record<string, string>): Promise<{ text: string; stop: () => Promise<unknown> }> {
  const other = spawn(process.execPath, ['bin/demo.js'], {
    cwd: ROOT,
    env: { ...process.env, PORT: '0', SVC_SANDBOX_PORT: '0', SVC_DIST_DIR: REAL_DIST, SVC_STORAGE: '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const shown = { text: '' };
  other.stdout!.on('data', (d: Buffer) => {
    shown.text += d.toString();
  });
  const t0 = Date.now();
  while (!/^curl .*Dry-Run/m.test(shown.text) && other.exitCode === null && Date.now() - t0 < 60_000) await new Promise((r) => setTimeout(r, 100));
  const stop = () => new Promise((resolve) => (other.exitCode !== null ? resolve(other.exitCode) : (other.once('exit', resolve), other.kill('SIGTERM'))));
  return { text: shown.text, stop };
}
const exited = () => new Promise<number | null>((resolve) => (child.exitCode !== null ? resolve(child.exitCode) : child.once('exit', resolve)));
afterAll(() => {
  child.kill('SIGKILL');
});

describe('npm run demo', () => {
  it('prints a token on a line of its own', () => {
    expect(out).toMatch(/^token: svc_[A-Za-z0-9]{32}$/m);
  });

  it('prints three curl commands that work as pasted', () => {
    const commands = out.split('\n').filter((l) => l.startsWith('curl '));
    expect(commands).toHaveLength(3);
    const [verify, enrich, dry] = commands.map((c) => JSON.parse(execFileSync('bash', ['-c', c], { encoding: 'utf8' })));
    expect(verify._svc.served_by).toMatch(/people\.email\.verify$/);
    expect(verify.output.status).toBe('deliverable');
    expect(enrich._svc.tried[0].outcome).toBe('miss');
    expect(enrich._svc.served_by).toMatch(/people\.enrich$/);
    expect(dry.plan.length).toBeGreaterThan(4);
    expect(dry.worst_cost_micro).toBeGreaterThan(0);
  });

  it('keeps its state in a fresh directory, removed when it stops', async () => {
    const dir = /^state: (\S+) \(fresh, removed when the demo stops; set SVC_DATA_DIR to keep one\)$/m.exec(out)?.[1];
    expect(dir).toBeDefined();
    expect(existsSync(dir!)).toBe(true);
    child.kill('SIGTERM');
    expect(await exited()).toBe(0);
    expect(existsSync(dir!)).toBe(false);
  });

  it('on SVC_STORAGE=redis:// keeps its state there and says so', async () => {
    const shared = await demoUntilCommands({ SVC_DATA_DIR: '', SVC_STORAGE: redis.url(), SVC_SECRET: 'demo-test-secret' });
    try {
      expect(shared.text).toMatch(new RegExp(`^state: shared on Redis at ${redis.url().replaceAll('/', '\\/')}$`, 'm'));
      expect(await redis.keys()).toBeGreaterThan(0);
    } finally {
      await shared.stop();
    }
  }, 70_000);

  it('started again on a kept SVC_DATA_DIR, prints a new token of the same team that works as pasted', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-demo-kept-'));
    try {
      await (await demoUntilCommands({ SVC_DATA_DIR: dir })).stop();
      const again = await demoUntilCommands({ SVC_DATA_DIR: dir });
      try {
        expect(again.text).toMatch(/^token: svc_[A-Za-z0-9]{32}$/m);
        const verify = again.text.split('\n').find((l) => l.startsWith('curl ') && l.includes('email.verify'))!;
        expect(JSON.parse(execFileSync('bash', ['-c', verify], { encoding: 'utf8' }))._svc.served_by).toMatch(/people\.email\.verify$/);
      } finally {
        await again.stop();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);

  it('stops on a sandbox setting it does not take, with that sentence and exit code 2, before building anything', async ({ signal }) => {
    for (const [env, line] of [
      [{ SVC_SANDBOX_FAULT_RATE: 'lots' }, 'svc: SVC_SANDBOX_FAULT_RATE=lots: expected a share from 0 to 1, such as 0.05'],
      [{ SVC_SANDBOX_FAULT_RATE: '1.5' }, 'svc: SVC_SANDBOX_FAULT_RATE=1.5: expected a share from 0 to 1, such as 0.05'],
      [{ SVC_SANDBOX_SEED: 'x' }, 'svc: SVC_SANDBOX_SEED=x: expected a whole number, such as 1'],
    ] as const) {
      // a demo that took the value would serve until the test's timeout kills it
      const r = await ranToExit(process.execPath, ['bin/demo.js'], {
        cwd: ROOT,
        signal,
        env: { ...process.env, ...env, PORT: '0', SVC_SANDBOX_PORT: '0', SVC_STORAGE: 'memory:', SVC_DIST_DIR: '/nonexistent' },
      });
      expect(r.status).toBe(2);
      expect(r.stderr.trim()).toBe(line);
    }
  }, 60_000);

  it('says in a sentence that its port is taken', async ({ signal }) => {
    const taken = createServer();
    await new Promise<void>((r) => taken.listen(0, '127.0.0.1', () => r()));
    const busy = (taken.address() as { port: number }).port;
    try {
      for (const [name, env] of [
        ['PORT', { PORT: String(busy), SVC_SANDBOX_PORT: '0' }],
        ['SVC_SANDBOX_PORT', { PORT: '0', SVC_SANDBOX_PORT: String(busy) }],
      ] as const) {
        const r = await ranToExit(process.execPath, ['bin/demo.js'], {
          cwd: ROOT,
          signal,
          env: { ...process.env, ...env, SVC_STORAGE: 'memory:', SVC_DIST_DIR: REAL_DIST },
        });
        expect(r.status).toBe(1);
        expect(r.stderr).toContain(`svc: port ${busy} on 127.0.0.1 is already in use by another process; stop it or set ${name} to a free port.`);
        expect(r.stdout).not.toContain('token:');
      }
    } finally {
      taken.close();
    }
  }, 60_000);
});
