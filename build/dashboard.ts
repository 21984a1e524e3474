// The dashboard (web/) built by vite into a dist dir, beside its catalog/. A marker holds the hash of
// what the bundle is made from, so `npm start` can tell a dashboard built from older sources.
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { sourceHash } from './source-hash.ts';

/** web/ and the catalog language it bundles (search, shelves, types), and vite's configuration */
const DASHBOARD_SOURCES = ['web', 'language', 'vite.config.ts'];
const marker = (distDir: string) => join(distDir, '.dashboard-hash');

export const dashboardSourceHash = (): string => sourceHash(DASHBOARD_SOURCES);

/** true when dist holds a dashboard built from today's sources */
export function dashboardFresh(distDir: string): boolean {
  const m = marker(distDir);
  return existsSync(join(distDir, 'index.html')) && existsSync(m) && readFileSync(m, 'utf8') === dashboardSourceHash();
}

export async function buildDashboard(distDir: string): Promise<void> {
  const { build } = await import('vite');
  // dist/ also holds the catalog, so vite may not empty it; the previous build's hashed assets go here.
  rmSync(join(distDir, 'assets'), { recursive: true, force: true });
  await build({ configFile: 'vite.config.ts', logLevel: 'warn', build: { outDir: resolve(distDir), emptyOutDir: false } });
  writeFileSync(marker(distDir), dashboardSourceHash());
}
