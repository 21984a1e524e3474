// /meta's app_version over a real server on loopback follows the dashboard entry and the rollout
// policy on disk: a build or a policy edit while the server runs is what open tabs must see.
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { FIXTURE_DIST } from '../helpers/paths.ts';
import { appContext, serve } from '../helpers/server.ts';

let dist = '';
let base = '';
let close: () => Promise<void>;
beforeAll(async () => {
  dist = mkdtempSync(join(tmpdir(), 'svc-meta-'));
  cpSync(join(FIXTURE_DIST, 'catalog'), join(dist, 'catalog'), { recursive: true });
  writeFileSync(join(dist, 'index.html'), '<!doctype html><title>one</title>');
  writeFileSync(join(dist, 'rollout.json'), '{"channel":"stable","percent":100}');
  const s = await serve(await appContext(dist));
  base = s.url;
  close = s.close;
});
afterAll(async () => {
  await close();
  rmSync(dist, { recursive: true, force: true });
});

const version = async () => ((await (await fetch(`${base}/meta`)).json()) as { app_version: string }).app_version;

it('changes when the dashboard entry or the rollout policy changes while the server runs, and only then', async () => {
  const first = await version();
  expect(first).toMatch(/^[0-9a-f]{12}$/);
  expect(await version()).toBe(first);

  writeFileSync(join(dist, 'index.html'), '<!doctype html><title>two</title>');
  const second = await version();
  expect(second).not.toBe(first);
  // the page the server hands out is the new one too
  expect(await (await fetch(`${base}/`)).text()).toContain('two');

  writeFileSync(join(dist, 'rollout.json'), '{"channel":"stable","percent":50}');
  const third = await version();
  expect(third).not.toBe(second);
  expect(await version()).toBe(third);
});
