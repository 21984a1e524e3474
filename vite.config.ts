import { defineConfig } from 'vitest/config';

export default defineConfig({
  root: 'web',
  base: './', // relative asset paths: the dashboard works from any folder of any static host
  build: { outDir: '../dist', emptyOutDir: false },
  test: {
    root: '.',
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
  },
});
