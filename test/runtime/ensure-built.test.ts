// `npm start` rebuilds what is missing or stale: the catalog when its sources change, the dashboard
// when web/ or the catalog language it bundles change (an old checkout must not keep serving an old
// page), in a process of its own whose progress and errors it reports as its own.
import { appendFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { spawn } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { ensureBuilt } from '../../runtime/serve/ensure-built.ts';
import { dashboardFresh, dashboardSourceHash } from '../../build/dashboard.ts';
import { catalogSourceHash, catalogSourceStamp } from '../../build/source-hash.ts';
import { FIXTURE_SRC, ROOT } from '../helpers/paths.ts';
import { buildCatalog } from '../../build/pipeline.ts';

const dist = mkdtempSync(join(tmpdir(), 'svc-ensure-'));
afterAll(() => rmSync(dist, { recursive: true, force: true }));

/** the fixture's catalog sources copied to `<dist>/<name>-src`, and `<dist>/<name>` a dist whose dashboard is marked fresh (these tests are about the catalog) */
function catalogCase(name: string): { src: string; out: string } {
  const src = join(dist, `${name}-src`);
  const out = join(dist, name);
  cpSync(FIXTURE_SRC, src, { recursive: true });
  mkdirSync(out, { recursive: true });
  writeFileSync(join(out, 'index.html'), '<!doctype html>');
  writeFileSync(join(out, '.dashboard-hash'), dashboardSourceHash());
  return { src, out };
}

async function run(): Promise<string[]> {
  const said: string[] = [];
  await ensureBuilt(dist, 'catalog-src', (m) => {
    said.push(m);
  });
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

it("trusts the sources' stat stamp instead of hashing them, and hashes again once a file is touched or edited", async () => {
  const { src, out } = catalogCase('stamped');
  const said: string[] = [];
  const start = async () => {
    said.length = 0;
    await ensureBuilt(out, src, (m) => {
      if (!m.startsWith('build:')) said.push(m);
    });
    return [...said];
  };
  const stampFile = join(out, 'catalog', '.source-stamp');
  const marker = join(out, 'catalog', '.source-hash');

  expect(await start()).toEqual(['no built catalog: building']);
  expect(readFileSync(stampFile, 'utf8')).toBe(`${catalogSourceStamp(src)} ${catalogSourceHash(src)}`);
  expect(await start()).toEqual([]);

  // while the stamp holds, the hash it was recorded with is believed (nothing is read or hashed)
  writeFileSync(marker, 'believed');
  writeFileSync(stampFile, `${catalogSourceStamp(src)} believed`);
  expect(await start()).toEqual([]);

  // touched, same content: hashed again, so the wrong marker above is found out and rebuilt
  const file = join(src, 'platforms.yaml');
  utimesSync(file, new Date(), new Date(Date.now() + 5_000));
  expect(await start()).toEqual(['catalog sources changed: rebuilding']);
  utimesSync(file, new Date(), new Date(Date.now() + 10_000));
  expect(await start()).toEqual([]); // same content: the stamp renewed, nothing built
  expect(readFileSync(stampFile, 'utf8')).toBe(`${catalogSourceStamp(src)} ${catalogSourceHash(src)}`);

  appendFileSync(file, '\n# edited\n');
  expect(await start()).toEqual(['catalog sources changed: rebuilding']);
  expect(readFileSync(marker, 'utf8')).toBe(catalogSourceHash(src));
});

it("stops the start with the build's own errors, and builds nothing, when the sources do not build", async () => {
  const { src, out } = catalogCase('broken');
  writeFileSync(join(src, 'providers', 'zerobounce.yaml'), '');
  const said: string[] = [];
  const start = ensureBuilt(out, src, (m) => {
    said.push(m);
  });
  await expect(start).rejects.toThrow(`catalog build failed:\n${join(src, 'providers', 'zerobounce.yaml')}:1:1 the file is empty`);
  expect(said[0]).toBe('no built catalog: building');
  expect(said.some((m) => m.startsWith('build: '))).toBe(true); // the build's progress, from its own process
  expect(existsSync(join(out, 'catalog'))).toBe(false);
});

it('a start that finds another process building the same dist waits for it, then builds only what it left stale', async () => {
  const { src, out } = catalogCase('shared');
  // another start (a process of its own) holds the dist while it builds
  const other = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      '--input-type=module',
      '-e',
      `const { lockDataDir } = await import(${JSON.stringify(join(ROOT, 'runtime', 'state', 'dir-lock.ts'))}); await lockDataDir(${JSON.stringify(out)}); process.stdout.write('held\\n'); process.stdin.once('data', () => process.exit(0));`,
    ],
    { stdio: ['pipe', 'pipe', 'inherit'] },
  );
  await new Promise<void>((held) => other.stdout!.once('data', () => held()));
  const said: string[] = [];
  const start = ensureBuilt(out, src, (m) => {
    if (!m.startsWith('build:')) said.push(m);
  });
  await new Promise((r) => setTimeout(r, 400)); // several of its 250 ms waits
  expect(said).toEqual([expect.stringMatching(/^another svc start \(pid \d+\) is building .+: waiting for it$/)]);
  expect(existsSync(join(out, 'catalog'))).toBe(false);
  // it builds the catalog meanwhile, as that start would, and ends
  const built = join(dist, 'shared-built');
  expect((await buildCatalog({ src, out: join(built, 'catalog') })).errors).toEqual([]);
  writeFileSync(join(built, 'catalog', '.source-hash'), catalogSourceHash(src));
  cpSync(join(built, 'catalog'), join(out, 'catalog'), { recursive: true });
  other.stdin!.write('done\n');
  await start;
  expect(said).toHaveLength(1); // nothing left stale: nothing rebuilt twice
  expect(readFileSync(join(out, 'catalog', '.source-hash'), 'utf8')).toBe(catalogSourceHash(src));
}, 60_000);
