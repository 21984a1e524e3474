import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

/** Routed, pass-through and catalog suites whose requests go through SUITE_DOOR: they run once per door. */
const DOOR_SUITES = [
  'test/runtime/catalog-http.test.ts',
  'test/router/routed.test.ts',
  'test/router/capabilities.test.ts',
  'test/router/miss-billing.test.ts',
  'test/router/money-rules.test.ts',
  'test/router/pass-through.test.ts',
];

export default defineConfig({
  root: 'web',
  base: './', // relative asset paths: the dashboard works from any folder of any static host
  build: { outDir: '../dist', emptyOutDir: false },
  test: {
    root: '.',
    globalSetup: ['test/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // one test file per core: most suites spend their time waiting on sockets, timers, child processes
    // and Chromium (vitest's default on 2 cores is 1); one more oversubscribed the cores enough for
    // money suites' 2 s attempt timeouts to fire on answers the sandbox had billed
    maxWorkers: availableParallelism(),
    // the test matrix: every suite through the listening server (whose Node fast path takes
    // token-bearing routed calls), and the door suites again through the h3 app (app.fetch)
    // A worker runs the node door's files one after another in one module graph (isolate off):
    // importing the runtime again for every file cost a third of the suite's time. So a suite leaves
    // nothing behind: servers and states closed (an embedded state left open holds files whose
    // handles Node closes at a later collection, warning on the stderr a CLI suite reads), spies
    // restored, env put back. The h3 door stays isolated: its files read SVC_TEST_DOOR when they first
    // load the helpers.
    projects: [
      { extends: true, test: { name: 'node door', include: ['test/**/*.test.ts'], isolate: false } },
      { extends: true, test: { name: 'h3 door', include: DOOR_SUITES, env: { SVC_TEST_DOOR: 'h3' } } },
    ],
  },
});
