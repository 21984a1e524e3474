// The dashboard (web/) built by vite into a dist dir, beside its catalog/.
import { resolve } from 'node:path';

export async function buildDashboard(distDir: string): Promise<void> {
  const { build } = await import('vite');
  await build({ configFile: 'vite.config.ts', logLevel: 'warn', build: { outDir: resolve(distDir), emptyOutDir: false } });
}
