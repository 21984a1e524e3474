// Teams, credentials, administration and own keys through app.fetch, over the fixture catalog.
import { beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, jsonInit, testApp } from './app-helper.ts';

type App = Awaited<ReturnType<typeof testApp>>;
let t: App;
const seen: string[] = []; // every response body and header value, checked for secrets at the end
const secrets: string[] = [ADMIN];

async function call(path: string, init?: RequestInit): Promise<{ status: number; body: any; headers: Headers }> {
  const res = await t.call(path, init);
  const text = await res.text();
  seen.push(text);
  res.headers.forEach((v, k) => seen.push(`${k}: ${v}`));
  return { status: res.status, body: text ? JSON.parse(text) : null, headers: res.headers };
}
const admin = (path: string, body: unknown, key = ADMIN) => call(path, jsonInit('POST', body, { 'x-svc-admin': key }));
const as = (token: string, extra: Record<string, string> = {}) => ({ headers: { 'x-svc-token': token, ...extra } });

let alpha = { team: '', token: '' };
let beta = { team: '', token: '' };

beforeAll(async () => {
  t = await testApp();
  const a = await admin('/admin/teams', { name: 'Alpha Labs', credit_usd: '12.34' });
  const b = await admin('/admin/teams', { name: 'Beta', credit_usd: 1 });
  alpha = a.body;
  beta = b.body;
  secrets.push(alpha.token, beta.token);
});

describe('admin API', () => {
  it('creates a team with credit and a token shown once', async () => {
    expect(alpha.team).toBe('alpha-labs');
    expect(alpha.token).toMatch(/^svc_[0-9A-Za-z]{32}$/);
    const me = await call('/teams/me', as(alpha.token));
    expect(me.body).toEqual({ team: 'alpha-labs', name: 'Alpha Labs', balance_micro: 12_340_000, earnings_micro: 0, own_keys: [], own_keys_set_aside: [] });
  });

  it('answers 201 with the status on creation, 409 on a taken slug, 422 on bad input', async () => {
    const r = await admin('/admin/teams', { name: 'Gamma' });
    expect(r.status).toBe(201);
    secrets.push(r.body.token);
    expect((await admin('/admin/teams', { name: 'gamma!' })).status).toBe(409);
    const unknown = await admin('/admin/teams', { name: 'Delta', credit_usd: 1, extra: true });
    expect(unknown.status).toBe(422);
    expect(unknown.body.detail[0]).toMatchObject({ loc: ['body', 'extra'], type: 'value_error.additionalProperties' });
    expect((await admin('/admin/teams', { name: 'Delta', credit_usd: '1.0000001' })).body.detail[0].loc).toEqual(['body', 'credit_usd']);
    expect((await admin('/admin/teams', { name: 'Delta', credit_usd: -1 })).status).toBe(422);
    // the most svc can hold, as a JSON number, has lost its last digit before svc reads it: the answer says to send text
    const long = await call('/admin/teams', {
      method: 'POST',
      headers: { 'x-svc-admin': ADMIN, 'content-type': 'application/json' },
      body: '{"name":"Delta","credit_usd":9007199254.740991}',
    });
    expect(long.body.detail[0].msg).toMatch(/up to 9007199254\.740991 \(sent as a string past 15 digits/);
    expect((await admin('/admin/teams', { name: '***' })).body.detail[0].loc).toEqual(['body', 'name']);
    expect((await admin('/admin/teams', {})).body.detail[0].loc).toEqual(['body', 'name']);
    expect((await call('/teams/me', as(alpha.token))).body.balance_micro).toBe(12_340_000); // nothing changed
  });

  it('issues more tokens and credits, with ledger entries', async () => {
    const tok = await admin(`/admin/teams/${alpha.team}/tokens`, {});
    expect(tok.status).toBe(201);
    secrets.push(tok.body.token);
    expect(tok.body.token).not.toBe(alpha.token);
    expect((await call('/teams/me', as(tok.body.token))).body.team).toBe('alpha-labs');
    const credit = await admin(`/admin/teams/${alpha.team}/credit`, { usd: '0.66' });
    expect(credit).toMatchObject({ status: 200, body: { balance_micro: 13_000_000 } });
    expect((await admin(`/admin/teams/${alpha.team}/credit`, { usd: 0 })).status).toBe(422);
    expect((await admin('/admin/teams/nobody/credit', { usd: 1 })).status).toBe(404);
    expect((await admin('/admin/teams/nobody/tokens', {})).status).toBe(404);
  });

  it('rejects a wrong or missing x-svc-admin with 401', async () => {
    expect((await admin('/admin/teams', { name: 'Evil' }, 'wrong')).status).toBe(401);
    expect((await call('/admin/teams', jsonInit('POST', { name: 'Evil' }))).status).toBe(401);
    expect((await admin(`/admin/teams/${alpha.team}/tokens`, {}, alpha.token)).status).toBe(401);
  });

  it('does not exist without SVC_ADMIN_TOKEN', async () => {
    const off = await testApp({ SVC_ADMIN_TOKEN: '' });
    for (const path of ['/admin/teams', '/admin/teams/x/tokens', '/admin/teams/x/credit', '/admin/anything']) {
      const res = await off.call(path, jsonInit('POST', { name: 'x' }, { 'x-svc-admin': ADMIN }));
      expect(res.status, path).toBe(404);
      expect((await res.json()).detail, path).toMatch(/disabled.*SVC_ADMIN_TOKEN/); // what the CLI prints too
    }
    expect((await off.call('/admin/teams')).status).toBe(404);
  });
});

describe('credentials', () => {
  it('401 without or with a bad credential; 403 when x-svc-org names another team', async () => {
    expect((await call('/teams/me')).status).toBe(401);
    expect((await call('/teams/me', as('svc_' + 'A'.repeat(32)))).status).toBe(401);
    expect((await call('/teams/me', { headers: { cookie: 'svc_session=bogus' } })).status).toBe(401);
    expect((await call('/teams/me', as(alpha.token, { 'x-svc-org': 'beta' }))).status).toBe(403);
    expect((await call('/teams/me', as(alpha.token, { 'x-svc-org': 'alpha-labs' }))).status).toBe(200);
    // the slug in another case, or the team's name, names the same team
    for (const org of ['ALPHA-LABS', 'Alpha Labs']) expect((await call('/teams/me', as(alpha.token, { 'x-svc-org': org }))).status).toBe(200);
    // a near miss is not the team: nothing is turned into a slug before comparing
    for (const org of ['-alpha-labs', 'alpha-labs-', 'alpha--labs', 'alpha labs', 'Alpha Labs!', 'alpha_labs']) {
      const r = await call('/teams/me', as(alpha.token, { 'x-svc-org': org }));
      expect(r.status, org).toBe(403);
      expect(r.body.detail).toContain('does not belong to team');
    }
    const before = await t.state.balance((await t.state.teamBySlug('alpha-labs'))!.id);
    for (const org of ['-alpha-labs', 'alpha-labs-']) {
      const paid = await call('/proxy/people.email.verify', jsonInit('POST', { email: 'jane@acme.com' }, { 'x-svc-token': alpha.token, 'x-svc-org': org }));
      expect(paid.status, org).toBe(403);
    }
    expect(await t.state.balance((await t.state.teamBySlug('alpha-labs'))!.id)).toBe(before);
    const r = await call('/teams/me');
    expect(r.body).toEqual({ detail: expect.any(String) });
  });

  it('POST /auth/session sets an HttpOnly SameSite=Lax cookie that acts for the team', async () => {
    const r = await call('/auth/session', jsonInit('POST', { token: beta.token }));
    expect(r).toMatchObject({ status: 200, body: { team: 'beta' } });
    const cookie = r.headers.get('set-cookie')!;
    expect(cookie).toMatch(/^svc_session=[A-Za-z0-9_-]{43};/);
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
    expect(cookie).not.toMatch(/Secure/i);
    expect(cookie).not.toContain(beta.token);
    const session = cookie.split(';')[0];
    const me = await call('/teams/me', { headers: { cookie: session } });
    expect(me.body.team).toBe('beta');
    expect((await call('/teams/me', { headers: { cookie: session, 'x-svc-org': 'alpha-labs' } })).status).toBe(403);
  });

  it('marks the cookie Secure behind https', async () => {
    const r = await call('/auth/session', jsonInit('POST', { token: beta.token }, { 'x-forwarded-proto': 'https' }));
    expect(r.headers.get('set-cookie')).toMatch(/Secure/i);
  });

  it('refuses a bad token, malformed JSON, unknown fields and big bodies', async () => {
    expect((await call('/auth/session', jsonInit('POST', { token: 'svc_nope' }))).status).toBe(401);
    expect((await call('/auth/session', jsonInit('POST', '{"token":'))).status).toBe(400);
    expect((await call('/auth/session', jsonInit('POST', { token: beta.token, remember: true }))).status).toBe(422);
    expect((await call('/auth/session', jsonInit('POST', 'x'.repeat(70_000)))).status).toBe(413);
  });
});

describe('team endpoints', () => {
  it('lists the ledger newest first with credits, and pages with a cursor', async () => {
    for (let i = 0; i < 55; i++)
      await t.state.charge((await t.state.teamBySlug('beta'))!.id, 1000, { endpoint_id: 'searchco.google.serp.organic', call_id: `c${i}` });
    const p1 = await call('/teams/me/ledger', as(beta.token));
    expect(p1.status).toBe(200);
    expect(p1.body.entries).toHaveLength(50);
    expect(p1.body.entries[0]).toMatchObject({ kind: 'charge', amount_micro: -1000, endpoint_id: 'searchco.google.serp.organic', call_id: 'c54' });
    expect(Object.keys(p1.body.entries[0]).sort()).toEqual(['amount_micro', 'at', 'call_id', 'endpoint_id', 'id', 'kind']);
    const p2 = await call(`/teams/me/ledger?cursor=${p1.body.next_cursor}&unknown=1`, as(beta.token));
    expect(p2.body.entries).toHaveLength(6);
    expect(p2.body.entries[5]).toMatchObject({ kind: 'credit', amount_micro: 1_000_000 });
    expect(Object.keys(p2.body.entries[5]).sort()).toEqual(['amount_micro', 'at', 'id', 'kind']); // no empty references
    expect(p2.body.next_cursor).toBeNull();
    expect((await call('/teams/me', as(beta.token))).body.balance_micro).toBe(945_000);
    expect((await call('/teams/me/ledger?cursor=abc', as(beta.token))).status).toBe(422);
  });

  it('reads ?cursor= (empty, as a client passing back no cursor sends it) as the first page; a bad cursor is a sentence', async () => {
    const first = await call('/teams/me/ledger', as(beta.token));
    const empty = await call('/teams/me/ledger?cursor=', as(beta.token));
    expect(empty.status).toBe(200);
    expect(empty.body).toEqual(first.body);
    const bad = await call('/teams/me/ledger?cursor=abc', as(beta.token));
    expect(bad.body.detail[0].msg).toBe("'cursor' must be the next_cursor of the previous page (empty or absent for the first page).");
  });

  it('keeps teams apart: each sees only its own balance, ledger and keys', async () => {
    const a = await call('/teams/me/ledger', as(alpha.token));
    expect(a.body.entries.every((e: { kind: string }) => e.kind === 'credit')).toBe(true);
    expect(a.body.entries.map((e: { amount_micro: number }) => e.amount_micro)).toEqual([660_000, 12_340_000]);
    await call('/teams/me/keys/searchco', jsonInit('POST', { key: 'alpha-searchco-KEY-0001' }, { 'x-svc-token': alpha.token }));
    expect((await call('/teams/me', as(beta.token))).body.own_keys).toEqual([]);
    expect((await call('/teams/me', as(alpha.token))).body.own_keys).toEqual(['searchco']);
  });

  it('stores own keys sealed, never shows them, and removes them', async () => {
    secrets.push('alpha-searchco-KEY-0001', 'alpha-zb-KEY-0002');
    const r = await call('/teams/me/keys/zerobounce', jsonInit('POST', { key: 'alpha-zb-KEY-0002' }, { 'x-svc-token': alpha.token }));
    expect(r).toMatchObject({ status: 200, body: { provider: 'zerobounce', stored: true } });
    const alphaId = (await t.state.teamBySlug('alpha-labs'))!.id;
    expect(await t.state.ownKey(alphaId, 'zerobounce')).toBe('alpha-zb-KEY-0002');
    expect((await call('/teams/me', as(alpha.token))).body.own_keys).toEqual(['searchco', 'zerobounce']);
    const del = await call('/teams/me/keys/zerobounce', { method: 'DELETE', ...as(alpha.token) });
    expect(del).toMatchObject({ status: 200, body: { provider: 'zerobounce', stored: false, removed: true } });
    expect(await t.state.ownKey(alphaId, 'zerobounce')).toBeNull();
    expect((await call('/teams/me/keys/zerobounce', { method: 'DELETE', ...as(alpha.token) })).body.removed).toBe(false);
  });

  it('answers 404, 422, 400, 413 and 401 on the key routes as it should', async () => {
    const post = (provider: string, body: unknown, token = alpha.token) => call(`/teams/me/keys/${provider}`, jsonInit('POST', body, { 'x-svc-token': token }));
    expect((await post('nosuch', { key: 'k' })).status).toBe(404);
    expect((await call('/teams/me/keys/nosuch', { method: 'DELETE', ...as(alpha.token) })).status).toBe(404);
    expect((await post('searchco', { key: 'k', note: 'x' })).status).toBe(422);
    expect((await post('searchco', { key: '' })).status).toBe(422);
    expect((await post('searchco', {})).body.detail[0]).toMatchObject({ loc: ['body', 'key'] });
    expect((await post('searchco', '{bad json')).status).toBe(400);
    expect((await post('searchco', { key: 'k'.repeat(65 * 1024) })).status).toBe(413);
    expect((await post('searchco', { key: 'k' }, 'svc_' + 'b'.repeat(32))).status).toBe(401);
    expect((await call('/teams/me/keys/searchco', { method: 'DELETE' })).status).toBe(401);
    expect(await t.state.ownKey((await t.state.teamBySlug('alpha-labs'))!.id, 'searchco')).toBe('alpha-searchco-KEY-0001'); // unchanged
  });

  it.each(['\u0085', '\u2028', '\u009b', '\u2019', '\n', '\u0000', '\u{1F511}'])(
    'refuses a key holding %j with a 422 naming the provider, storing nothing',
    async (c) => {
      const res = await call('/teams/me/keys/searchco', jsonInit('POST', { key: `new-key${c}0001` }, { 'x-svc-token': alpha.token }));
      expect(res.status).toBe(422);
      expect(res.body.detail[0].loc).toEqual(['body', 'key']);
      expect(res.body.detail[0].msg).toContain('searchco key holds U+');
      expect(await t.state.ownKey((await t.state.teamBySlug('alpha-labs'))!.id, 'searchco')).toBe('alpha-searchco-KEY-0001');
    },
  );

  it('takes a key of visible Latin-1, surrounding spaces dropped, and refuses a blank one', async () => {
    const post = (key: string) => call('/teams/me/keys/zerobounce', jsonInit('POST', { key }, { 'x-svc-token': alpha.token }));
    expect((await post('   ')).status).toBe(422);
    expect((await post('  zb key~é  ')).status).toBe(200);
    const alphaId = (await t.state.teamBySlug('alpha-labs'))!.id;
    expect(await t.state.ownKey(alphaId, 'zerobounce')).toBe('zb key~é');
    await call('/teams/me/keys/zerobounce', { method: 'DELETE', ...as(alpha.token) });
  });

  it('lists its paths in /openapi.json', async () => {
    const doc = await call('/openapi.json');
    for (const p of [
      '/auth/session',
      '/teams/me',
      '/teams/me/ledger',
      '/teams/me/keys/{provider}',
      '/admin/teams',
      '/admin/teams/{team}/tokens',
      '/admin/teams/{team}/credit',
    ]) {
      expect(doc.body.paths[p], p).toBeDefined();
    }
  });
});

describe('tokens', () => {
  const mine = (method: string, path: string, token: string, body?: unknown) =>
    call(path, body === undefined ? { method, headers: { 'x-svc-token': token } } : jsonInit(method, body, { 'x-svc-token': token }));

  it('a team creates a named token with an expiry, lists it without a secret, and revokes it', async () => {
    const made = await mine('POST', '/teams/me/tokens', beta.token, { name: 'ci deploys', expires_at: '2099-01-31' });
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({
      token: expect.stringMatching(/^svc_/),
      id: expect.stringMatching(/^tok_[0-9a-f]{16}$/),
      name: 'ci deploys',
      expires_at: '2099-01-31T00:00:00.000Z',
      status: 'active',
    });
    secrets.push(made.body.token);
    const bare = await mine('POST', '/teams/me/tokens', beta.token);
    expect(bare.status).toBe(201);
    secrets.push(bare.body.token);
    const list = await mine('GET', '/teams/me/tokens', beta.token);
    expect(list.body.tokens.map((x: { name: string | null; current: boolean }) => [x.name, x.current])).toEqual([
      ['first token', true],
      ['ci deploys', false],
      [null, false],
    ]);
    expect(Object.keys(list.body.tokens[0]).sort()).toEqual(['created_at', 'current', 'expires_at', 'id', 'name', 'revoked_at', 'status']);
    const gone = await mine('DELETE', `/teams/me/tokens/${bare.body.id}`, beta.token);
    expect(gone.body).toMatchObject({ id: bare.body.id, status: 'revoked' });
    expect((await mine('GET', '/teams/me', bare.body.token)).body.detail).toMatch(/^This token was revoked at /);
    // another team's id is not the caller's to revoke
    expect((await mine('DELETE', `/teams/me/tokens/${made.body.id}`, alpha.token)).status).toBe(404);
    expect((await mine('GET', '/teams/me', made.body.token)).status).toBe(200);
  });

  it('refuses a bad name, expiry or id with a 422 naming it, and creates nothing', async () => {
    const before = (await mine('GET', '/teams/me/tokens', beta.token)).body.tokens.length;
    for (const [body, field] of [
      [{ expires_at: '2001-01-01' }, 'expires_at'],
      [{ expires_at: 'tomorrow' }, 'expires_at'],
      [{ expires_at: '2099-01-01T00:00:00' }, 'expires_at'],
      [{ name: '' }, 'name'],
      [{ name: '   ' }, 'name'],
      [{ name: 'x'.repeat(65) }, 'name'],
      [{ scope: 'all' }, 'scope'],
    ] as const) {
      const r = await mine('POST', '/teams/me/tokens', beta.token, body);
      expect(r.status, JSON.stringify(body)).toBe(422);
      expect(r.body.detail[0].loc).toEqual(['body', field]);
    }
    expect((await mine('GET', '/teams/me/tokens', beta.token)).body.tokens.length).toBe(before);
    expect((await mine('DELETE', '/teams/me/tokens/nope', beta.token)).status).toBe(422);
    expect((await call('/teams/me/tokens')).status).toBe(401);
  });

  it('the admin lists, issues, revokes, and disables and enables a team', async () => {
    const issued = await admin('/admin/teams/beta/tokens', { name: 'from admin', expires_at: '2099-06-01T12:00:00+02:00' });
    expect(issued.status).toBe(201);
    expect(issued.body).toMatchObject({ name: 'from admin', expires_at: '2099-06-01T10:00:00.000Z' });
    secrets.push(issued.body.token);
    const listed = await call('/admin/teams/beta/tokens', { headers: { 'x-svc-admin': ADMIN } });
    expect(listed.body.tokens.at(-1)).toMatchObject({ id: issued.body.id, name: 'from admin' });
    const revoked = await call(`/admin/teams/beta/tokens/${issued.body.id}`, { method: 'DELETE', headers: { 'x-svc-admin': ADMIN } });
    expect(revoked.body.status).toBe('revoked');
    expect((await call('/admin/teams/alpha-labs/tokens/' + issued.body.id, { method: 'DELETE', headers: { 'x-svc-admin': ADMIN } })).status).toBe(404);
    expect((await admin('/admin/teams/beta/disable', {})).body.disabled_at).toEqual(expect.any(String));
    const refused = await call('/teams/me', as(beta.token));
    expect(refused.status).toBe(403);
    expect(refused.body.detail).toMatch(/^Team 'beta' is disabled/);
    expect((await call('/auth/session', jsonInit('POST', { token: beta.token }))).status).toBe(403);
    expect((await admin('/admin/teams/beta/enable', {})).body).toEqual({ team: 'beta', disabled_at: null });
    expect((await call('/teams/me', as(beta.token))).status).toBe(200);
    expect((await admin('/admin/teams/nobody/disable', {})).status).toBe(404);
    expect((await admin('/admin/teams/beta/disable', {}, 'wrong')).status).toBe(401);
  });
});

describe('no secret leaks', () => {
  it('never puts a token, provider key or the admin token in a response body or header', () => {
    // tokens appear exactly where they are created: the admin answers that hand them out
    const issuing = seen.filter((s) => /"token":"svc_/.test(s));
    const rest = seen.filter((s) => !issuing.includes(s));
    expect(rest.length).toBeGreaterThan(50);
    for (const secret of secrets) for (const s of rest) expect(s).not.toContain(secret);
    for (const s of issuing) for (const secret of secrets.filter((x) => !x.startsWith('svc_'))) expect(s).not.toContain(secret);
  });
});
