// `npm start` on a fresh clone or after a catalog or dashboard edit: rebuild what is missing or stale first.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildCatalog, catalogSourceHash } from '../build/pipeline.ts';
import { buildDashboard, dashboardFresh } from '../build/dashboard.ts';

export async function ensureBuilt(distDir: string, src = 'catalog-src', log: (message: string) => void = (m) => { process.stderr.write(`${m}\n`); }): Promise<void> {
  const marker = join(distDir, 'catalog', '.source-hash');
  const want = catalogSourceHash(src);
  if (!existsSync(marker) || readFileSync(marker, 'utf8') !== want) {
    log(existsSync(marker) ? 'catalog sources changed: rebuilding' : 'no built catalog: building');
    const r = await buildCatalog({ src, out: join(distDir, 'catalog'), log });
    if (r.errors.length) throw new Error(`catalog build failed:\n${r.errors.join('\n')}`);
  }
  if (!dashboardFresh(distDir)) {
    log(existsSync(join(distDir, 'index.html')) ? 'dashboard sources changed: rebuilding web/' : 'no dashboard build: building web/');
    await buildDashboard(distDir);
  }
}
