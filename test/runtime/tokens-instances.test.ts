// Two instances sharing a Redis of the test's own: a token revoked, or a team disabled, on one is
// refused by the other on the very next call, through every door (the routed fast path included).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURE_DIST } from '../helpers/paths.ts';
import { appContext, serve } from '../helpers/server.ts';
import { ownRedis, type OwnRedis } from '../helpers/redis-server.ts';
import type { AppContext } from '../../runtime/context/context.ts';

const ADMIN = 'admin-tokens-instances';
let redis: OwnRedis;
let ctx: AppContext[];
let urls: string[];
let closers: Array<() => Promise<void>>;

beforeAll(async () => {
  redis = await ownRedis('off');
  const env = { SVC_STORAGE: redis.url(0), SVC_ADMIN_TOKEN: ADMIN };
  ctx = [await appContext(FIXTURE_DIST, env), await appContext(FIXTURE_DIST, env)];
  const servers = await Promise.all(ctx.map((c) => serve(c)));
  urls = servers.map((s) => s.url);
  closers = [...servers.map((s) => s.close), ...ctx.map((c) => () => c.state.close()), () => redis.stop()];
});
afterAll(async () => {
  for (const close of closers) await close();
});

async function on(i: 0 | 1, method: string, path: string, headers: Record<string, string>, body?: unknown) {
  const r = await fetch(urls[i] + path, {
    method,
    headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await r.text();
  return { status: r.status, body: text.startsWith('{') ? JSON.parse(text) : text };
}
const A = 0;
const B = 1;
/** a routed call (a dry run: nothing is called or charged, but the credential is checked as for any call) */
const routed = (i: 0 | 1, token: string) =>
  on(i, 'POST', '/proxy/people.email.verify', { 'x-svc-token': token, 'X-Svc-Route-Dry-Run': '1' }, { email: 'jane@acme.com' });

describe('tokens across two instances', () => {
  it('a token revoked on A is refused on B on the very next call, by every door', async () => {
    const made = await on(A, 'POST', '/admin/teams', { 'x-svc-admin': ADMIN }, { name: 'Two Doors', credit_usd: 1 });
    const keeper = made.body.token as string;
    const leaked = await on(A, 'POST', '/teams/me/tokens', { 'x-svc-token': keeper }, { name: 'leaked' });
    expect(leaked.status).toBe(201);
    const token = leaked.body.token as string;
    for (let round = 0; round < 5; round++) {
      // B knows the token well before the revoke: every door has answered it
      for (let i = 0; i < 20; i++) {
        expect((await routed(B, token)).status).toBe(200);
        expect((await on(B, 'GET', '/teams/me', { 'x-svc-token': token })).status).toBe(200);
      }
      if (round < 4) continue;
      const gone = await on(A, 'DELETE', `/teams/me/tokens/${leaked.body.id}`, { 'x-svc-token': keeper });
      expect(gone.body).toMatchObject({ id: leaked.body.id, status: 'revoked' });
      const next = await routed(B, token);
      expect(next.status).toBe(401);
      expect(next.body.detail).toMatch(/^This token was revoked at /);
      expect((await on(B, 'GET', '/teams/me', { 'x-svc-token': token })).status).toBe(401);
      expect((await routed(A, token)).status).toBe(401);
      expect((await routed(B, keeper)).status).toBe(200); // the team's other token still acts
    }
  });

  it('a team disabled on A is refused on B at once (tokens and sessions), and acts again once enabled', async () => {
    const made = await on(B, 'POST', '/admin/teams', { 'x-svc-admin': ADMIN }, { name: 'Switch Off', credit_usd: 1 });
    const token = made.body.token as string;
    const session = await fetch(`${urls[B]}/auth/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token }),
    });
    const cookie = session.headers.get('set-cookie')!.split(';')[0];
    for (let i = 0; i < 20; i++) expect((await routed(B, token)).status).toBe(200);
    expect((await on(B, 'GET', '/teams/me', { cookie })).status).toBe(200);

    expect((await on(A, 'POST', '/admin/teams/switch-off/disable', { 'x-svc-admin': ADMIN }, {})).body).toMatchObject({
      team: 'switch-off',
      disabled_at: expect.any(String),
    });
    const next = await routed(B, token);
    expect(next.status).toBe(403);
    expect(next.body.detail).toMatch(/^Team 'switch-off' is disabled/);
    expect((await on(B, 'GET', '/teams/me', { cookie })).status).toBe(403);
    const listed = await on(B, 'GET', '/admin/teams', { 'x-svc-admin': ADMIN });
    expect(listed.body.teams.find((t: { team: string }) => t.team === 'switch-off').disabled_at).toEqual(expect.any(String));

    await on(A, 'POST', '/admin/teams/switch-off/enable', { 'x-svc-admin': ADMIN }, {});
    expect((await routed(B, token)).status).toBe(200);
    expect((await on(B, 'GET', '/teams/me', { cookie })).status).toBe(200);
  });

  it('a session opened on B with a token revoked on A ends with it', async () => {
    const made = await on(A, 'POST', '/admin/teams', { 'x-svc-admin': ADMIN }, { name: 'Session Ends', credit_usd: 1 });
    const session = await fetch(`${urls[B]}/auth/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token: made.body.token }),
    });
    const cookie = session.headers.get('set-cookie')!.split(';')[0];
    const listed = await on(B, 'GET', '/teams/me/tokens', { cookie });
    expect(listed.body.tokens).toHaveLength(1);
    await on(A, 'DELETE', `/admin/teams/session-ends/tokens/${listed.body.tokens[0].id}`, { 'x-svc-admin': ADMIN });
    const after = await on(B, 'GET', '/teams/me', { cookie });
    expect(after.status).toBe(401);
    expect(after.body.detail).toMatch(/sign in again/);
  });
});
