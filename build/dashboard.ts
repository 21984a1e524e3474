// The dashboard (web/) built by vite into a dist dir, beside its catalog/.
import { rmSync } from 'node:fs';
import { join, resolve } from 'node:path';

export async function buildDashboard(distDir: string): Promise<void> {
  const { build } = await import('vite');
  // dist/ also holds the catalog, so vite may not empty it; the previous build's hashed assets go here.
  rmSync(join(distDir, 'assets'), { recursive: true, force: true });
  await build({ configFile: 'vite.config.ts', logLevel: 'warn', build: { outDir: resolve(distDir), emptyOutDir: false } });
}
