// `npm start` on a fresh clone or after a catalog or dashboard edit: rebuild what is missing or stale
// first, in a process of its own (build/rebuild.ts), so the server never holds the build's modules.
import { fork } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { catalogSourceHash, catalogSourceStamp, packageRoot } from '../../build/source-hash.ts';
import { dashboardFresh } from '../../build/dashboard.ts';
import type { RebuildMessage } from '../../build/rebuild.ts';
import { DataDirLocked, lockDataDir } from '../state/dir-lock.ts';

const read = (path: string) => (existsSync(path) ? readFileSync(path, 'utf8') : null);

/** what of `distDir` is missing or stale, each with the line that says so, and the sources' stamp and hash to record */
function stale(distDir: string, src: string): { parts: Array<{ part: string; why: string }>; stamp: string; want: string | null } {
  const marker = join(distDir, 'catalog', '.source-hash');
  // The sources' stat stamp beside the hash they gave when it was last checked: while the stamp
  // holds, the hash does too, and a start skips reading and hashing every source (~20 ms and more).
  const built = read(marker);
  const stamp = catalogSourceStamp(src); // taken before hashing: an edit made meanwhile fails the next check
  const parts: Array<{ part: string; why: string }> = [];
  let want: string | null = null;
  if (built === null || read(stampFile(distDir)) !== `${stamp} ${built}`) {
    want = catalogSourceHash(src);
    if (built !== want) parts.push({ part: 'catalog', why: built !== null ? 'catalog sources changed: rebuilding' : 'no built catalog: building' });
  }
  if (!dashboardFresh(distDir))
    parts.push({
      part: 'dashboard',
      why: existsSync(join(distDir, 'index.html')) ? 'dashboard sources changed: rebuilding web/' : 'no dashboard build: building web/',
    });
  return { parts, stamp, want };
}

const stampFile = (distDir: string) => join(distDir, 'catalog', '.source-stamp');

export async function ensureBuilt(
  distDir: string,
  src = 'catalog-src',
  log: (message: string) => void = (m) => {
    process.stderr.write(`${m}\n`);
  },
): Promise<void> {
  let check = stale(distDir, src);
  if (check.parts.length) {
    // Several instances started at once on one checkout would rebuild the same files together: one
    // rebuilds, the others wait for it and find the build fresh.
    const release = await lockWaiting(distDir, log);
    try {
      check = stale(distDir, src);
      for (const { why } of check.parts) log(why);
      if (check.parts.length)
        await rebuildApart(
          distDir,
          src,
          check.parts.map((p) => p.part),
          log,
        );
    } finally {
      release();
    }
  }
  if (check.want === null) return;
  try {
    writeFileSync(stampFile(distDir), `${check.stamp} ${check.want}`);
  } catch {
    // a read-only dist: every start hashes the sources, as before
  }
}

/** the lock of `distDir` (dir-lock.ts: released however its holder ends), waited for while another process holds it */
async function lockWaiting(distDir: string, log: (message: string) => void): Promise<() => void> {
  for (let said = false; ; await new Promise((r) => setTimeout(r, 250))) {
    try {
      return await lockDataDir(distDir);
    } catch (e) {
      if (!(e instanceof DataDirLocked)) throw e;
      if (!said) log(`another svc start${e.pid ? ` (pid ${e.pid})` : ''} is building ${distDir}: waiting for it`);
      said = true;
    }
  }
}

/** build/rebuild.ts in a child process through tsx; its progress is logged here, its failure thrown */
async function rebuildApart(distDir: string, src: string, parts: string[], log: (message: string) => void): Promise<void> {
  const child = fork(join(packageRoot(), 'build', 'rebuild.ts'), [resolve(distDir), resolve(src), ...parts], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  let errors: string[] = [];
  child.on('message', (m: RebuildMessage) => {
    if ('log' in m) log(m.log);
    else errors = m.errors;
  });
  const code = await new Promise<number | null>((done, fail) => {
    child.once('error', fail);
    child.once('close', done);
  });
  if (errors.length) throw new Error(`catalog build failed:\n${errors.join('\n')}`);
  if (code !== 0) throw new Error(`the build of the ${parts.join(' and the ')} stopped with exit code ${code}; its output is above`);
}
