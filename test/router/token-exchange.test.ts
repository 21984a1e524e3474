// Providers whose key is a client id and secret exchanged for tokens (auth.exchange, OAuth2 client
// credentials): the cache's renewal rule on a clock the test moves, then Snov against the sandbox's
// token endpoint over loopback (one exchange for many calls, a renewal after expiry, a bad secret).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ProviderRuntime, RuntimeCatalog } from '../../language/types.ts';
import { TokenCache, type Exchange } from '../../runtime/router/token-exchange.ts';
import { REAL_DIST } from '../helpers/paths.ts';
import { routedWorld, type RoutedWorld } from '../helpers/routed.ts';

const runtime = JSON.parse(readFileSync(join(REAL_DIST, 'catalog', 'runtime.json'), 'utf8')) as RuntimeCatalog;
const snov = runtime.providers.snov;

describe('the token cache', () => {
  const provider: ProviderRuntime = {
    service: 'oauthco',
    display_name: 'OAuthCo',
    base_url: 'https://oauth.test',
    auth: { env: 'SVC_KEY_OAUTHCO', in: 'bearer', exchange: { grant: 'client_credentials', path: '/token' } },
  };
  const counting = () => {
    const asked: string[] = [];
    const exchange: Exchange = async (_p, key) => {
      asked.push(key);
      await new Promise((r) => setTimeout(r, 5));
      return { token: `token-${asked.length}-for-${key}`, lifeS: 3600 };
    };
    return { asked, exchange };
  };

  it('keeps a token until a minute before it expires, then renews it before it has expired', async () => {
    let now = 1_000_000;
    const { asked, exchange } = counting();
    const cache = new TokenCache(() => now, exchange);
    const first = await cache.credential(provider, 'id:secret', {}, 1000, 1000);
    now += 3_539_000; // 1 s before the renewal point: still the same token
    expect(await cache.credential(provider, 'id:secret', {}, 1000, 1000)).toBe(first);
    now += 2_000; // 59 s before expiry: renewed while the old token would still work
    const second = await cache.credential(provider, 'id:secret', {}, 1000, 1000);
    expect(second).not.toBe(first);
    expect(asked).toHaveLength(2);
  });

  it('ten calls asking at once share one exchange', async () => {
    const { asked, exchange } = counting();
    const cache = new TokenCache(Date.now, exchange);
    const got = await Promise.all(Array.from({ length: 10 }, () => cache.credential(provider, 'id:secret', {}, 1000, 1000)));
    expect(asked).toHaveLength(1);
    expect(new Set(got).size).toBe(1);
  });

  it("each credential has its own token: one team's pair never yields another's token", async () => {
    const { asked, exchange } = counting();
    const cache = new TokenCache(Date.now, exchange);
    const [a, b] = await Promise.all([cache.credential(provider, 'team-a:s1', {}, 1000, 1000), cache.credential(provider, 'team-b:s2', {}, 1000, 1000)]);
    expect(a).toContain('team-a:s1');
    expect(b).toContain('team-b:s2');
    expect(asked.sort()).toEqual(['team-a:s1', 'team-b:s2']);
  });

  it('a token is only shown to the endpoint that issued it: another base URL for the same provider and pair exchanges again', async () => {
    const { asked, exchange } = counting();
    const cache = new TokenCache(Date.now, exchange);
    const own = await cache.credential(provider, 'id:secret', {}, 1000, 1000);
    const other = { SVC_BASE_OAUTHCO: 'https://eu.oauth.test' };
    const elsewhere = await cache.credential(provider, 'id:secret', other, 1000, 1000);
    expect(elsewhere).not.toBe(own);
    expect(asked).toHaveLength(2);
    // each keeps its own, and forgetting one leaves the other
    cache.forget(provider, 'id:secret', other, elsewhere);
    expect(await cache.credential(provider, 'id:secret', {}, 1000, 1000)).toBe(own);
    expect(asked).toHaveLength(2);
  });

  it('a key of a provider that does not exchange is placed as it is', async () => {
    const { asked, exchange } = counting();
    const plain = { ...provider, auth: { env: 'SVC_KEY_OAUTHCO', in: 'bearer' as const } };
    expect(await new TokenCache(Date.now, exchange).credential(plain, 'k', {}, 1000, 1000)).toBe('k');
    expect(asked).toHaveLength(0);
  });
});

describe('Snov against the sandbox token endpoint', () => {
  let w: RoutedWorld;
  beforeAll(async () => {
    w = await routedWorld(REAL_DIST, { tokenLifeS: 3 });
  });
  afterAll(() => w.close());
  const tokens = async () => ((await (await fetch(`${w.running.url}/_sandbox/tokens`)).json()) as Record<string, { exchanges: number; refused: number }>).snov;

  it('Snov exchanges its client id and secret at POST /v1/oauth/access_token for a bearer token', () => {
    expect(snov.auth).toMatchObject({ in: 'bearer', exchange: { grant: 'client_credentials', path: '/v1/oauth/access_token', expires_in: 3600 } });
  });

  it('ten concurrent calls make one exchange; after the token expires the next call renews it and succeeds', async () => {
    const calls = await Promise.all(
      Array.from({ length: 10 }, (_, i) => w.call('/proxy/people.search', { company_domain: `acme${i}.com` }, { 'X-Svc-Route-Prefer': 'snov' })),
    );
    for (const r of calls) expect(r.body._svc.served_by).toBe('snov.people.search');
    expect((await tokens()).exchanges).toBe(1);
    // the sandbox's tokens last 3 s here: a call after that is refused unless svc renewed
    await new Promise((r) => setTimeout(r, 3_100));
    const later = await w.call('/proxy/people.search', { company_domain: 'later.com' }, { 'X-Svc-Route-Prefer': 'snov' });
    expect(later.body._svc.tried[0]).toMatchObject({ endpoint_id: 'snov.people.search', outcome: 'hit' });
    expect((await tokens()).exchanges).toBe(2);
  });

  it("a team's own Snov pair is exchanged apart from svc's: refused, it is set aside and svc's key serves", async () => {
    const { team, token } = (await w.ctx.state.createTeam('own snov team', 1_000_000))!;
    await w.ctx.state.setOwnKey(team.id, 'snov', 'team-user:team-secret');
    const before = await tokens();
    const r = await w.call('/proxy/people.search', { company_domain: 'own.com' }, { 'X-Svc-Route-Prefer': 'snov' }, token);
    expect(r.body._svc.tried.slice(0, 2)).toMatchObject([
      { endpoint_id: 'snov.people.search', key: 'own', outcome: 'error', status: 401 },
      { endpoint_id: 'snov.people.search', outcome: 'hit' },
    ]);
    // the team's pair went to the token endpoint itself (refused); svc's token was not handed to it
    expect((await tokens()).refused).toBe(before.refused + 1);
  });
});

describe('a Snov secret the token endpoint refuses', () => {
  let w: RoutedWorld;
  beforeAll(async () => {
    w = await routedWorld(REAL_DIST, { env: { SVC_KEY_SNOV: 'snov-user:wrong-secret' } });
  });
  afterAll(() => w.close());

  it('a routed attempt is an error that says the client id and secret were refused', async () => {
    const r = await w.call('/proxy/people.search', { company_domain: 'acme.com' }, { 'X-Svc-Route-Prefer': 'snov' });
    const snovTry = r.body._svc.tried.find((t: { endpoint_id: string }) => t.endpoint_id === 'snov.people.search');
    expect(snovTry).toMatchObject({ outcome: 'error', status: 401, cost_micro: 0 });
    expect(snovTry.reason).toMatch(/^Snov\.io refused the client id and secret at its token endpoint \(HTTP 401: invalid_client/);
    expect(JSON.stringify(r.body)).not.toContain('wrong-secret');
  });

  it('a pass-through call is a 502 naming whose credential it was, nothing charged', async () => {
    const r = await w.call('/proxy/snov/v1/get-domain-emails-count', { domain: 'acme.com' });
    expect(r.status).toBe(502);
    expect(r.headers.get('x-svc-cost-micro')).toBe('0');
    expect(r.body.detail).toMatch(
      /^Snov\.io refused the client id and secret at its token endpoint \(HTTP 401.*svc's platform key: your svc credential is fine\. Nothing was charged\.$/,
    );
    expect(JSON.stringify(r.body)).not.toContain('wrong-secret');
  });
});
