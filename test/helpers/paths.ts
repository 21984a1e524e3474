// Where the global setup leaves the built catalogs that suites read.
import { join } from 'node:path';

export const ROOT = join(import.meta.dirname, '..', '..');
export const FIXTURE_SRC = join(ROOT, 'test', 'fixtures', 'catalog-src');
/** the fixture catalog, built once per run (a dist dir: catalog/ inside) */
export const FIXTURE_DIST = join(ROOT, '.test-dist', 'fixture');
/** the real catalog, built once per run from catalog-src/ (a dist dir: catalog/ inside) */
export const REAL_DIST = join(ROOT, '.test-dist', 'real');
/** {errors: string[]} of the real catalog's build in this run */
export const REAL_BUILD_RESULT = join(ROOT, '.test-dist', 'real-build.json');
/** the dashboard, built by vite once per run (index.html, assets/), for the suites that drive it */
export const DASHBOARD_BUILD = join(ROOT, '.test-dist', 'dashboard-build');
