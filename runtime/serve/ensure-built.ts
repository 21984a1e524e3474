// `npm start` on a fresh clone or after a catalog or dashboard edit: rebuild what is missing or stale
// first, in a process of its own (build/rebuild.ts), so the server never holds the build's modules.
import { fork } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { catalogSourceHash, catalogSourceStamp, packageRoot } from '../../build/source-hash.ts';
import { dashboardFresh } from '../../build/dashboard.ts';
import type { RebuildMessage } from '../../build/rebuild.ts';

const read = (path: string) => (existsSync(path) ? readFileSync(path, 'utf8') : null);

export async function ensureBuilt(
  distDir: string,
  src = 'catalog-src',
  log: (message: string) => void = (m) => {
    process.stderr.write(`${m}\n`);
  },
): Promise<void> {
  const marker = join(distDir, 'catalog', '.source-hash');
  // The sources' stat stamp beside the hash they gave when it was last checked: while the stamp
  // holds, the hash does too, and a start skips reading and hashing every source (~20 ms and more).
  const stampFile = join(distDir, 'catalog', '.source-stamp');
  const built = read(marker);
  const stamp = catalogSourceStamp(src); // taken before hashing: an edit made meanwhile fails the next check
  const parts: string[] = [];
  let want: string | null = null;
  if (built === null || read(stampFile) !== `${stamp} ${built}`) {
    want = catalogSourceHash(src);
    if (built !== want) {
      log(built !== null ? 'catalog sources changed: rebuilding' : 'no built catalog: building');
      parts.push('catalog');
    }
  }
  if (!dashboardFresh(distDir)) {
    log(existsSync(join(distDir, 'index.html')) ? 'dashboard sources changed: rebuilding web/' : 'no dashboard build: building web/');
    parts.push('dashboard');
  }
  if (parts.length) await rebuildApart(distDir, src, parts, log);
  if (want === null) return;
  try {
    writeFileSync(stampFile, `${stamp} ${want}`);
  } catch {
    // a read-only dist: every start hashes the sources, as before
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
