// `npm start` on a fresh clone or after a catalog or dashboard edit: rebuild what is missing or stale first.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { catalogSourceHash } from '../build/source-hash.ts';
import { dashboardFresh } from '../build/dashboard.ts';

export async function ensureBuilt(distDir: string, src = 'catalog-src', log: (message: string) => void = (m) => { process.stderr.write(`${m}\n`); }): Promise<void> {
  const marker = join(distDir, 'catalog', '.source-hash');
  const want = catalogSourceHash(src);
  if (!existsSync(marker) || readFileSync(marker, 'utf8') !== want) {
    log(existsSync(marker) ? 'catalog sources changed: rebuilding' : 'no built catalog: building');
    // loaded only when needed: the build's parsers and schema checks stay out of a server's memory
    const { buildCatalog } = await import('../build/pipeline.ts');
    const r = await buildCatalog({ src, out: join(distDir, 'catalog'), log });
    if (r.errors.length) throw new Error(`catalog build failed:\n${r.errors.join('\n')}`);
  }
  if (!dashboardFresh(distDir)) {
    log(existsSync(join(distDir, 'index.html')) ? 'dashboard sources changed: rebuilding web/' : 'no dashboard build: building web/');
    const { buildDashboard } = await import('../build/dashboard.ts');
    await buildDashboard(distDir);
  }
}
