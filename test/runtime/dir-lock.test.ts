// The data directory's lock file in one process: who holds it, and when it is taken over.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DataDirLocked, LOCK_FILE, lockDataDir } from '../../runtime/state/dir-lock.ts';

const tmp = mkdtempSync(join(tmpdir(), 'svc-dirlock-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const lockOf = (dir: string) => join(dir, LOCK_FILE);

describe('lockDataDir', () => {
  it('writes our pid, is shared inside the process, and goes with the last release', () => {
    const dir = join(tmp, 'shared');
    const a = lockDataDir(dir);
    const b = lockDataDir(dir);
    expect(readFileSync(lockOf(dir), 'utf8')).toBe(`${process.pid}\n`);
    a();
    expect(existsSync(lockOf(dir))).toBe(true);
    b();
    expect(existsSync(lockOf(dir))).toBe(false);
  });

  it('refuses a directory a live process holds, naming it and the pid', () => {
    const dir = join(tmp, 'live');
    const holder = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'], { stdio: 'ignore' });
    try {
      mkdirSync(dir);
      writeFileSync(lockOf(dir), `${holder.pid}\n`);
      expect(() => lockDataDir(dir)).toThrow(DataDirLocked);
      expect(() => lockDataDir(dir)).toThrow(`data directory ${dir} is in use by another svc process (pid ${holder.pid})`);
      expect(readFileSync(lockOf(dir), 'utf8')).toBe(`${holder.pid}\n`); // untouched
    } finally {
      holder.kill('SIGKILL');
    }
  });

  it.each([
    ['a dead process', () => `${spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' }).stdout}\n`],
    ['our own pid from a previous life (a restarted container)', () => `${process.pid}\n`],
    ['a torn file', () => ''],
  ])('takes over the lock of %s', (_, content) => {
    const dir = join(tmp, `stale-${Math.random().toString(36).slice(2)}`);
    mkdirSync(dir);
    writeFileSync(lockOf(dir), content());
    const release = lockDataDir(dir);
    expect(readFileSync(lockOf(dir), 'utf8')).toBe(`${process.pid}\n`);
    release();
    expect(existsSync(lockOf(dir))).toBe(false);
  });
});
