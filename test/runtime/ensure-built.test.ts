// `npm start` rebuilds what is missing or stale: the catalog when its sources change, the dashboard
// when web/ or the catalog language it bundles change (an old checkout must not keep serving an old page).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { ensureBuilt } from '../../runtime/ensure-built.ts';
import { dashboardFresh } from '../../build/dashboard.ts';

const dist = mkdtempSync(join(tmpdir(), 'svc-ensure-'));
afterAll(() => rmSync(dist, { recursive: true, force: true }));

async function run(): Promise<string[]> {
  const said: string[] = [];
  await ensureBuilt(dist, 'catalog-src', (m) => { said.push(m); });
  return said.filter((m) => !m.startsWith('build:'));
}

it('builds what is missing, keeps what is fresh, and rebuilds a dashboard made from other sources', async () => {
  expect(await run()).toEqual(['no built catalog: building', 'no dashboard build: building web/']);
  expect(dashboardFresh(dist)).toBe(true);
  expect(await run()).toEqual([]);
  writeFileSync(join(dist, '.dashboard-hash'), 'built-from-older-sources');
  expect(dashboardFresh(dist)).toBe(false);
  expect(await run()).toEqual(['dashboard sources changed: rebuilding web/']);
  expect(dashboardFresh(dist)).toBe(true);
});
