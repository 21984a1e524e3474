// A redis-server of a test's own, on a free port, with its data directory kept across restarts:
// by default appendonly with `appendfsync always`, the setting docs/deploy.md gives for acknowledged
// money (the state benchmark also compares `everysec` and no AOF).
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';

async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const { port } = s.address() as { port: number };
  await new Promise((r) => s.close(r));
  return port;
}

export interface OwnRedis {
  port: number;
  url(db: number): string;
  /** SIGKILL: what survives is what the AOF had */
  kill(): Promise<void>;
  start(): Promise<void>;
  stop(): Promise<void>;
  /** SIGSTOP / SIGCONT: a Redis that takes commands and does not answer them */
  freeze(frozen: boolean): void;
}

export type Fsync = 'always' | 'everysec' | 'off';

export async function ownRedis(fsync: Fsync = 'always'): Promise<OwnRedis> {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'svc-redis-'));
  let child: ChildProcess | null = null;
  const start = async () => {
    const aof = fsync === 'off' ? ['--appendonly', 'no'] : ['--appendonly', 'yes', '--appendfsync', fsync];
    child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', ...aof, '--save', '', '--dir', dir], { stdio: 'ignore' });
    const probe = new Redis({ port, host: '127.0.0.1', lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
    probe.on('error', () => {}); // refused until the server listens: the loop below retries
    for (let i = 0; i < 100; i++) {
      try {
        await probe.connect();
        await probe.ping();
        probe.disconnect();
        return;
      } catch {
        await new Promise((r) => setTimeout(r, 50));
      }
    }
    throw new Error(`redis-server on port ${port} did not start`);
  };
  const kill = async () => {
    const c = child;
    child = null;
    if (!c || c.exitCode !== null) return;
    const exited = new Promise((r) => c.once('exit', r));
    c.kill('SIGKILL');
    await exited;
  };
  await start();
  const freeze = (frozen: boolean) => {
    (child as ChildProcess | null)?.kill(frozen ? 'SIGSTOP' : 'SIGCONT');
  };
  return {
    port,
    url: (db) => `redis://127.0.0.1:${port}/${db}`,
    kill,
    start,
    freeze,
    stop: async () => {
      await kill();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
