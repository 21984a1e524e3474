// `npm start` on a fresh clone or after a catalog or dashboard edit: rebuild what is missing or stale first.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { catalogSourceHash, catalogSourceStamp } from '../../build/source-hash.ts';
import { dashboardFresh } from '../../build/dashboard.ts';

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
  if (built === null || read(stampFile) !== `${stamp} ${built}`) {
    const want = catalogSourceHash(src);
    if (built !== want) {
      log(built !== null ? 'catalog sources changed: rebuilding' : 'no built catalog: building');
      // loaded only when needed: the build's parsers and schema checks stay out of a server's memory
      const { buildCatalog } = await import('../../build/pipeline.ts');
      const r = await buildCatalog({ src, out: join(distDir, 'catalog'), log });
      if (r.errors.length) throw new Error(`catalog build failed:\n${r.errors.join('\n')}`);
    }
    try {
      writeFileSync(stampFile, `${stamp} ${want}`);
    } catch {
      // a read-only dist: every start hashes the sources, as before
    }
  }
  if (!dashboardFresh(distDir)) {
    log(existsSync(join(distDir, 'index.html')) ? 'dashboard sources changed: rebuilding web/' : 'no dashboard build: building web/');
    const { buildDashboard } = await import('../../build/dashboard.ts');
    await buildDashboard(distDir);
  }
}
