// Builds the fixture catalog, the real catalog and the dashboard once per test run; suites read
// these. The compiled server and CLI are brought up to date too, so suites that start svc as
// `npm start`, `npm run demo` and `npx svc` do (`bin/`) run them as a built checkout does, and never
// compile them, nor race each other doing so.
// A broken fixture stops the run; the real catalog's build errors are recorded for
// test/catalog/real-catalog.test.ts to report, so unrelated suites still run.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildCatalog } from '../build/pipeline.ts';
import { buildDashboard } from '../build/dashboard.ts';
import { compileServer, serverFresh } from '../bin/compile-server.js';
import { cliFresh, compileCli } from '../bin/compile-cli.js';
import { DASHBOARD_BUILD, FIXTURE_DIST, FIXTURE_SRC, REAL_BUILD_RESULT, REAL_DIST, ROOT } from './helpers/paths.ts';

export async function setup(): Promise<void> {
  rmSync(join(ROOT, '.test-dist'), { recursive: true, force: true });
  if (!serverFresh()) await compileServer();
  if (!cliFresh()) await compileCli();
  const fixture = await buildCatalog({ src: FIXTURE_SRC, out: join(FIXTURE_DIST, 'catalog') });
  if (fixture.errors.length) throw new Error(`fixture catalog build failed:\n${fixture.errors.join('\n')}`);
  const real = await buildCatalog({ src: join(ROOT, 'catalog-src'), out: join(REAL_DIST, 'catalog') });
  mkdirSync(REAL_DIST, { recursive: true });
  writeFileSync(REAL_BUILD_RESULT, JSON.stringify({ errors: real.errors }));
  await buildDashboard(DASHBOARD_BUILD);
}

export async function teardown(): Promise<void> {}
