// The embedded store has one writer: a lock file in the data directory holds the pid of the process
// that owns it. It is written whole beside the lock and hard-linked into place (link fails when the
// name exists), so of two starters one wins and no one reads a half-written pid; a lock whose pid is
// no longer alive (a crash, kill -9) is taken over. Opening the same directory twice in one process (tests,
// the CLI's restart checks) shares the lock; it goes away with the last release.
import { linkSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

export const LOCK_FILE = 'svc.lock';

/** Another live process holds the directory: the start stops with this sentence. */
export class DataDirLocked extends Error {
  constructor(readonly dir: string, readonly pid: number) {
    super(`data directory ${dir} is in use by another svc process (pid ${pid}); stop that process, or give this one its own SVC_DATA_DIR.`);
  }
}

const held = new Map<string, number>();

/** Whether another process with this pid runs. Our own pid in a lock we do not hold is a previous
 * life's: a container restarted with the same pid (often 1) on the same volume. */
function alive(pid: number): boolean {
  if (pid === process.pid) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM'; // it exists, under another user
  }
}

function holder(path: string): number | null {
  try {
    const pid = Number(readFileSync(path, 'utf8').trim());
    return Number.isSafeInteger(pid) && pid > 0 ? pid : null;
  } catch {
    return null; // gone meanwhile
  }
}

/** Take the lock of `dir` for this process (throws DataDirLocked); answers its release. */
export function lockDataDir(dir: string): () => void {
  const abs = resolve(dir);
  const path = join(abs, LOCK_FILE);
  const release = () => {
    const n = (held.get(abs) ?? 1) - 1;
    if (n > 0) return void held.set(abs, n);
    held.delete(abs);
    if (holder(path) === process.pid) rmSync(path, { force: true });
  };
  if (held.has(abs)) {
    held.set(abs, held.get(abs)! + 1);
    return release;
  }
  mkdirSync(abs, { recursive: true });
  const mine = `${path}.${process.pid}`;
  const aside = `${path}.stale-${process.pid}`;
  writeFileSync(mine, `${process.pid}\n`);
  try {
    for (;;) {
      try {
        linkSync(mine, path);
        held.set(abs, 1);
        return release;
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      }
      const pid = holder(path);
      if (pid !== null && alive(pid)) throw new DataDirLocked(abs, pid);
      // A dead holder: move it aside under a name of our own and look at what was moved; if another
      // starter took the lock over in between, it goes back and this one stops.
      try {
        renameSync(path, aside);
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code === 'ENOENT') continue;
        throw e;
      }
      const moved = holder(aside);
      if (moved !== null && moved !== pid && alive(moved)) {
        renameSync(aside, path);
        throw new DataDirLocked(abs, moved);
      }
      rmSync(aside, { force: true });
    }
  } finally {
    rmSync(mine, { force: true });
  }
}
