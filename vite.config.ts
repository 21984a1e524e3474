import { defineConfig } from 'vitest/config';

/** Suites that call routed and pass-through endpoints through RoutedWorld.call: they run once per door. */
const ROUTED_SUITES = ['test/router/routed.test.ts', 'test/router/capabilities.test.ts', 'test/router/miss-billing.test.ts', 'test/router/money-rules.test.ts', 'test/router/pass-through.test.ts'];

export default defineConfig({
  root: 'web',
  build: { outDir: '../dist', emptyOutDir: false },
  test: {
    root: '.',
    globalSetup: ['test/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // the test matrix: every suite through the listening server (whose Node fast path takes
    // token-bearing routed calls), and the routed suites again through the h3 app (app.fetch)
    projects: [
      { extends: true, test: { name: 'node door', include: ['test/**/*.test.ts'] } },
      { extends: true, test: { name: 'h3 door', include: ROUTED_SUITES, env: { SVC_TEST_DOOR: 'h3' } } },
    ],
  },
});
