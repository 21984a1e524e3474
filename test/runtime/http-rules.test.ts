// HTTP hygiene every own route follows: 405 with Allow, OPTIONS and CORS on the open reads, signing
// out, the admin list of teams, and the health endpoints. Through app.fetch and a real listener.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, afterAll, describe, expect, it } from 'vitest';
import { createApp } from '../../runtime/routes/app.ts';
import { ADMIN, jsonInit, testApp } from './app-helper.ts';
import { appContext, serve } from '../helpers/server.ts';
import { FIXTURE_DIST } from '../helpers/paths.ts';

type App = Awaited<ReturnType<typeof testApp>>;
let t: App;
let token = '';

beforeAll(async () => {
  t = await testApp();
  const created = await t.call('/admin/teams', jsonInit('POST', { name: 'Rules Co', credit_usd: 2 }, { 'x-svc-admin': ADMIN }));
  token = ((await created.json()) as { token: string }).token;
});

describe('a known path with a wrong method', () => {
  it.each([
    ['PUT', '/meta', 'GET, HEAD'],
    ['POST', '/catalog/platforms', 'GET, HEAD'],
    ['DELETE', '/openapi.json', 'GET, HEAD'],
    ['GET', '/auth/session', 'POST, DELETE'],
    ['PATCH', '/teams/me', 'GET, HEAD'],
    ['GET', '/admin/teams/rules-co/credit', 'POST'],
    ['GET', '/proxy/people.email.find', 'POST'],
  ])('%s %s is a 405 with Allow: %s', async (method, path, allow) => {
    const r = await t.call(path, { method, headers: { 'x-svc-token': token, 'x-svc-admin': ADMIN } });
    expect(r.status).toBe(405);
    expect(r.headers.get('allow')).toBe(allow);
    expect(((await r.json()) as { detail: string }).detail).toMatch(/\S/);
  });

  it('holds for every own route the OpenAPI document lists', async () => {
    const { paths } = (await (await t.call('/openapi.json')).json()) as { paths: Record<string, Record<string, unknown>> };
    for (const [template, ops] of Object.entries(paths)) {
      if (template.startsWith('/proxy/')) continue; // calls of the catalog, not own routes
      const path = template.replace(/\{[^}]+\}/g, 'x');
      const taken = Object.keys(ops).map((m) => m.toUpperCase());
      const wrong = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'].find((m) => !taken.includes(m))!;
      const r = await t.call(path, { method: wrong });
      expect(r.status, `${wrong} ${path}`).toBe(405);
      const allow = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'].filter((m) => taken.includes(m) || (m === 'HEAD' && taken.includes('GET')));
      expect(r.headers.get('allow'), `${wrong} ${path}`).toBe(allow.join(', '));
    }
  });

  it('leaves unknown paths and dist files alone', async () => {
    expect((await t.call('/no/such/path', { method: 'PUT' })).status).toBe(404);
    expect((await t.call('/no/such/path')).status).toBe(404);
    expect((await t.call('/meta', { method: 'HEAD' })).status).toBe(200);
  });
});

describe('CORS on the open reads', () => {
  it.each(['/meta', '/catalog/platforms', '/openapi.json', '/catalog/endpoints/no.such.endpoint'])('%s answers any origin', async (path) => {
    const r = await t.call(path, { headers: { origin: 'https://elsewhere.example' } });
    expect(r.headers.get('access-control-allow-origin')).toBe('*');
  });

  it('answers a preflight for GET and HEAD', async () => {
    const r = await t.call('/catalog/platforms', {
      method: 'OPTIONS',
      headers: { origin: 'https://elsewhere.example', 'access-control-request-method': 'GET', 'access-control-request-headers': 'if-none-match' },
    });
    expect(r.status).toBe(204);
    expect(r.headers.get('access-control-allow-origin')).toBe('*');
    expect(r.headers.get('access-control-allow-methods')).toBe('GET, HEAD');
    expect(r.headers.get('access-control-allow-headers')).toBe('if-none-match');
    // a preflight that asks for no headers is given no empty header naming none
    const bare = await t.call('/catalog/platforms', {
      method: 'OPTIONS',
      headers: { origin: 'https://elsewhere.example', 'access-control-request-method': 'GET' },
    });
    expect(bare.status).toBe(204);
    expect(bare.headers.has('access-control-allow-headers')).toBe(false);
  });

  it('is not given to team or admin endpoints', async () => {
    const r = await t.call('/teams/me', { headers: { 'x-svc-token': token, origin: 'https://elsewhere.example' } });
    expect(r.status).toBe(200);
    expect(r.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('is on the Node fast path of an entry too', async () => {
    const ctx = await appContext(FIXTURE_DIST);
    const server = await serve(ctx);
    try {
      const id = Object.keys(ctx.catalog.runtime.operations)[0];
      const r = await fetch(`${server.url}/catalog/endpoints/${id}`);
      expect(r.status).toBe(200);
      expect(r.headers.get('access-control-allow-origin')).toBe('*');
    } finally {
      await server.close();
    }
  });
});

describe('DELETE /auth/session', () => {
  it('ends the session and clears the cookie', async () => {
    const opened = await t.call('/auth/session', jsonInit('POST', { token }));
    const cookie = opened.headers.get('set-cookie')!.split(';')[0];
    expect((await t.call('/teams/me', { headers: { cookie } })).status).toBe(200);
    const out = await t.call('/auth/session', { method: 'DELETE', headers: { cookie } });
    expect(out.status).toBe(204);
    expect(out.headers.get('set-cookie')).toMatch(/^svc_session=;.*Max-Age=0/);
    expect((await t.call('/teams/me', { headers: { cookie } })).status).toBe(401);
  });
});

describe('GET /admin/teams', () => {
  it('lists every team with its balance, for the admin only', async () => {
    await t.call('/admin/teams', jsonInit('POST', { name: 'Second Co' }, { 'x-svc-admin': ADMIN }));
    const r = await t.call('/admin/teams', { headers: { 'x-svc-admin': ADMIN } });
    expect(r.status).toBe(200);
    const { teams } = (await r.json()) as { teams: Array<{ team: string; balance_micro: number }> };
    expect(teams.map((x) => x.team)).toEqual(['rules-co', 'second-co']);
    expect(teams[0].balance_micro).toBe(2_000_000);
    expect((await t.call('/admin/teams')).status).toBe(401);
  });
});

it('the OpenAPI document lists the routes added here', async () => {
  const { paths } = (await (await t.call('/openapi.json')).json()) as { paths: Record<string, Record<string, unknown>> };
  expect(Object.keys(paths['/auth/session'])).toContain('delete');
  expect(Object.keys(paths['/admin/teams'])).toContain('get');
  expect(paths['/healthz'].get).toBeDefined();
  expect(paths['/readyz'].get).toBeDefined();
});

describe('health', () => {
  let server: Awaited<ReturnType<typeof serve>>;
  afterAll(() => server?.close());

  it('answers /healthz and /readyz while serving', async () => {
    server = await serve(await appContext(FIXTURE_DIST));
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    const ready = await fetch(`${server.url}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: 'ready' });
  });

  it('answers /readyz 503 when storage takes no write, /healthz still 200', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-ready-'));
    const ctx = await appContext(FIXTURE_DIST, { SVC_STORAGE: `fs:${dir}` });
    const app = createApp(ctx);
    expect((await app.fetch(new Request('http://svc.test/readyz'))).status).toBe(200);
    rmSync(dir, { recursive: true, force: true });
    writeFileSync(dir, 'not a directory');
    try {
      const r = await app.fetch(new Request('http://svc.test/readyz'));
      expect(r.status).toBe(503);
      expect(((await r.json()) as { detail: string }).detail).toMatch(/Storage/);
      expect((await app.fetch(new Request('http://svc.test/healthz'))).status).toBe(200);
    } finally {
      rmSync(dir, { force: true });
    }
  });
});
