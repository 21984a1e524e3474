// The data directory's lock across real processes: a listening Unix socket the kernel closes when its
// holder dies, so a restart right after kill -9 is taken at once, a live holder refuses a second
// starter with a sentence naming it, and the last release's pid file never blocks.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DataDirLocked, LOCK_SOCKET, lockDataDir, OLD_LOCK_FILE, type LockPlace } from '../../runtime/state/dir-lock.ts';
import { ROOT } from '../helpers/paths.ts';

const tmp = mkdtempSync(join(tmpdir(), 'svc-dirlock-'));
const children: ChildProcess[] = [];
afterAll(() => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  rmSync(tmp, { recursive: true, force: true });
});

/** another process that takes the lock of `dir`, says so, and holds it until killed */
async function holder(dir: string, place: LockPlace): Promise<ChildProcess> {
  const script = `const m = await import(${JSON.stringify(join(ROOT, 'runtime/state/dir-lock.ts'))}); await m.lockDataDir(${JSON.stringify(dir)}, ${JSON.stringify(place)}); process.stdout.write('held\\n'); setInterval(() => {}, 1e6);`;
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'inherit'], cwd: ROOT });
  children.push(child);
  await new Promise<void>((ok, bad) => {
    child.stdout!.on('data', (d: Buffer) => {
      if (d.toString().includes('held')) ok();
    });
    child.once('exit', (code) => bad(new Error(`the holder exited (${code})`)));
  });
  return child;
}

const killed = (child: ChildProcess) =>
  new Promise<void>((done) => {
    child.once('exit', () => done());
    child.kill('SIGKILL');
  });

describe.each(['abstract', 'file'] as const)('lockDataDir (%s socket)', (place) => {
  it('refuses a directory a live process holds, naming it and the pid, and leaves the holder be', async () => {
    const dir = join(tmp, `live-${place}`);
    const child = await holder(dir, place);
    const refusal = lockDataDir(dir, place);
    await expect(refusal).rejects.toThrow(DataDirLocked);
    await expect(lockDataDir(dir, place)).rejects.toThrow(
      `data directory ${dir} is in use by another svc process (pid ${child.pid}); stop that process, or give this one its own SVC_DATA_DIR.`,
    );
    await expect(lockDataDir(dir, place)).rejects.toThrow(DataDirLocked); // still held
    await killed(child);
  }, 60_000);

  it('takes the lock at once after its holder is killed with SIGKILL, every time', async () => {
    const dir = join(tmp, `killed-${place}`);
    for (let round = 0; round < 3; round++) {
      const child = await holder(dir, place);
      await killed(child);
      // no wait, no retry: the kernel closed the holder's socket with the process
      const release = await lockDataDir(dir, place);
      release();
    }
  }, 90_000);

  it('is shared inside the process and goes with the last release', async () => {
    const dir = join(tmp, `shared-${place}`);
    const [a, b] = await Promise.all([lockDataDir(dir, place), lockDataDir(dir, place)]);
    a();
    a(); // a second call of one release changes nothing
    const blocked = spawnLocker(dir, place);
    expect(await blocked).toBe(1);
    b();
    await new Promise((r) => setTimeout(r, 50)); // the close is asynchronous
    expect(await spawnLocker(dir, place)).toBe(0);
    // (that process exited before its close unlinked a socket file: what is left is taken over)
    if (place === 'file') expect(existsSync(join(dir, LOCK_SOCKET))).toBe(true);
    (await lockDataDir(dir, place))();
  }, 60_000);
});

/** exit 0 when another process takes and releases the lock, 1 when refused */
function spawnLocker(dir: string, place: LockPlace): Promise<number | null> {
  const script = `const m = await import(${JSON.stringify(join(ROOT, 'runtime/state/dir-lock.ts'))}); try { (await m.lockDataDir(${JSON.stringify(dir)}, ${JSON.stringify(place)}))(); process.exit(0); } catch (e) { process.exit(e instanceof m.DataDirLocked ? 1 : 2); }`;
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { stdio: 'ignore', cwd: ROOT });
  return new Promise((done) => child.once('exit', (code) => done(code)));
}

describe("the last release's lock file", () => {
  it('does not block, even naming a live pid, and is removed when the lock is taken', async () => {
    const dir = join(tmp, 'old-format');
    mkdirSync(dir);
    const alive = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'], { stdio: 'ignore' });
    children.push(alive);
    writeFileSync(join(dir, OLD_LOCK_FILE), `${alive.pid}\n`); // a zombie or a reused pid looks alive too
    const release = await lockDataDir(dir);
    expect(existsSync(join(dir, OLD_LOCK_FILE))).toBe(false);
    release();
    alive.kill('SIGKILL');
  });
});
