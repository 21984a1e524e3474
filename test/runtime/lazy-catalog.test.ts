// A start parses the runtime catalog (what routing needs: megabytes of JSON in a large catalog) only
// when something needs it, so /meta and the catalog reads answer first. Shown with a runtime.json that
// cannot be parsed: the start and the catalog reads are untouched, /readyz and routed calls say so.
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testRuntime } from '../helpers/server.ts';
import { FIXTURE_DIST } from '../helpers/paths.ts';
import type { RunningServer } from '../../runtime/http/server.ts';
import type { Svc } from '../../runtime/serve/create-runtime.ts';

const tmp = mkdtempSync(join(tmpdir(), 'svc-lazy-'));
let svc: Svc;
let server: RunningServer;
let token = '';
let teamId = 0;

beforeAll(async () => {
  cpSync(join(FIXTURE_DIST, 'catalog'), join(tmp, 'catalog'), { recursive: true });
  writeFileSync(join(tmp, 'catalog', 'runtime.json'), '{"providers": {'); // cut short
  svc = await testRuntime(tmp);
  server = await svc.listen(0);
  const made = (await svc.ctx.state.createTeam('lazy', 1_000_000))!;
  token = made.token;
  teamId = made.team.id;
});
afterAll(async () => {
  await server.close();
  rmSync(tmp, { recursive: true, force: true });
});

describe('a start with a runtime catalog that does not parse', () => {
  it('answers /meta, shelves and search as usual', async () => {
    const meta = await fetch(`${server.url}/meta`);
    expect(meta.status).toBe(200);
    expect(((await meta.json()) as { catalog: { operations: number } }).catalog.operations).toBeGreaterThan(0);
    expect((await fetch(`${server.url}/catalog/platforms`)).status).toBe(200);
    expect((await fetch(`${server.url}/catalog/search?q=email`)).status).toBe(200);
  });

  it('is not ready, and says why', async () => {
    const ready = await fetch(`${server.url}/readyz`);
    expect(ready.status).toBe(503);
    expect(((await ready.json()) as { detail: string }).detail).toMatch(/^The runtime catalog did not load \(.+\), so routed calls cannot be served\.$/);
  });

  it('refuses a routed call without charging', async () => {
    const res = await fetch(`${server.url}/proxy/people.email.verify`, {
      method: 'POST',
      headers: { 'x-svc-token': token, 'content-type': 'application/json' },
      body: '{"email":"a@b.co"}',
    });
    expect(res.status).toBe(500);
    expect(await svc.ctx.state.balance(teamId)).toBe(1_000_000);
  });
});

describe('a start with a sound catalog', () => {
  it('is ready with its router made', async () => {
    const ok = await testRuntime(FIXTURE_DIST);
    const running = await ok.listen(0);
    try {
      expect((await fetch(`${running.url}/readyz`)).status).toBe(200);
      expect(ok.ctx.router.isCapability('people.email.verify')).toBe(true);
    } finally {
      await running.close();
    }
  });
});
