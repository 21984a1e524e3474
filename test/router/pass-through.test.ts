// Pass-through calls on the real catalog against the sandbox: what is held before a per-row call,
// what is checked before any provider is called or paid, which operation a path is, and what a
// refused key answers. Every charge is reconciled with what the sandbox billed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REAL_DIST } from '../helpers/paths.ts';
import { routedWorld, type RoutedWorld } from '../helpers/routed.ts';
import { chargeMicro } from '../../language/prices.ts';

let w: RoutedWorld;
beforeAll(async () => {
  w = await routedWorld(REAL_DIST, { creditMicro: 5_000 });
});
afterAll(async () => {
  await w.close();
});

const SEARCH = 'hunter.people.search';
const billedOf = async (id: string) => (await w.billing())[id] ?? { calls: 0, billed_micro: 0 };
const balance = () => w.ctx.state.balance(w.teamId);
const rowHold = (rows: number) => chargeMicro(w.ctx.catalog.runtime.operations[SEARCH], 'hit', rows);

/** tokens of the teams a test made besides the world's own, so the reconciliation sums every ledger */
const otherTokens: string[] = [];

/** Every charge row of a team's ledger (the world's team by default), summed per endpoint, added into `out`. */
async function chargedByEndpoint(token = w.token, out: Record<string, number> = {}): Promise<Record<string, number>> {
  let cursor: string | null = '';
  while (cursor !== null) {
    const page = await w.call(`/teams/me/ledger${cursor ? `?cursor=${cursor}` : ''}`, undefined, {}, token);
    for (const e of page.body.entries) if (e.kind === 'charge') out[e.endpoint_id] = (out[e.endpoint_id] ?? 0) - e.amount_micro;
    cursor = page.body.next_cursor;
  }
  return out;
}

describe('a per_result pass-through (hunter domain search)', () => {
  it('answers 402 before calling when the balance cannot cover the rows it may return', async () => {
    expect(rowHold(50)).toBeGreaterThan(5_000);
    const r = await w.call('/proxy/hunter/domain-search?domain=stripe.com&limit=50');
    expect(r.status).toBe(402);
    expect(r.body.detail).toContain(`${rowHold(50)} micro-USD for the 50 rows`);
    expect((await billedOf(SEARCH)).calls).toBe(0);
    expect(await balance()).toBe(5_000);
  });

  it('holds the declared default page size (10) when the call sends none', async () => {
    const r = await w.call('/proxy/hunter/domain-search?domain=stripe.com');
    expect(r.status).toBe(rowHold(10) > 5_000 ? 402 : 200);
    if (r.status === 402) expect(r.body.detail).toContain('the 10 rows');
  });

  it('once funded, is charged every row the provider billed, and the ledger reconciles with the sandbox', async () => {
    await w.ctx.state.credit(w.teamId, rowHold(50) * 2);
    const before = await balance();
    const r = await w.call('/proxy/hunter/domain-search?domain=stripe.com&limit=50');
    expect(r.status).toBe(200);
    const billed = await billedOf(SEARCH);
    expect(billed.calls).toBe(1);
    expect(billed.billed_micro).toBeGreaterThan(0);
    expect(r.headers.get('x-svc-cost-micro')).toBe(String(billed.billed_micro));
    expect(r.headers.get('x-svc-key')).toBe('platform');
    expect(await balance()).toBe(before - billed.billed_micro);
    expect((await chargedByEndpoint())[SEARCH]).toBe(billed.billed_micro);
  });
});

describe('a per-item batch (addresses to verify, domains to enrich)', () => {
  it('holds and charges every item sent, as the provider bills them, reconciled with the sandbox', async () => {
    const batch = 'companyenrich.companies.enrich.batch';
    const price = w.ctx.catalog.runtime.operations[batch].price_micro;
    const domains = ['a.co', 'b.co', 'c.co', 'd.co'];
    // a team of its own, funded one micro-dollar short of four items
    const { team, token } = (await w.ctx.state.createTeam('batch team', 4 * price - 1))!;
    otherTokens.push(token);
    const billed = (await billedOf(batch)).billed_micro;
    const short = await w.call('/proxy/companyenrich/companies/enrich/batch', { domains }, {}, token);
    expect(short.status).toBe(402);
    expect(short.body.detail).toContain('for the 4 rows');
    expect((await billedOf(batch)).billed_micro).toBe(billed);
    await w.ctx.state.credit(team.id, 1);
    const r = await w.call('/proxy/companyenrich/companies/enrich/batch', { domains }, {}, token);
    expect(r.status).toBe(200);
    expect(r.headers.get('x-svc-cost-micro')).toBe(String(4 * price));
    expect((await billedOf(batch)).billed_micro).toBe(billed + 4 * price);
    expect((await w.ctx.state.ledger(team.id, null)).entries[0]).toMatchObject({ kind: 'charge', amount_micro: -4 * price, endpoint_id: batch });
    expect(await w.ctx.state.balance(team.id)).toBe(0);
  });
});

describe('a per_result operation that serves no capability (Diffbot DQL, page_size.rows: data)', () => {
  it('called without a page size, holds its declared default page and is charged the entities its answer lists, as the provider bills them', async () => {
    const dql = 'diffbot.companies.query';
    const op = w.ctx.catalog.runtime.operations[dql];
    const page = chargeMicro(op, 'hit', op.page_size!.default!);
    const { token, team } = (await w.ctx.state.createTeam('dql team', page))!;
    otherTokens.push(token);
    const billed = (await billedOf(dql)).billed_micro;
    const r = await w.call('/proxy/diffbot/kg/v3/dql?query=type%3AOrganization', undefined, {}, token);
    expect(r.status).toBe(200);
    const listed = (r.body as { data: unknown[] }).data.length;
    expect(listed).toBeGreaterThan(0);
    expect(listed).toBeLessThan(op.page_size!.default!);
    const charged = chargeMicro(op, 'hit', listed);
    expect(r.headers.get('x-svc-cost-micro')).toBe(String(charged));
    expect((await billedOf(dql)).billed_micro - billed).toBe(charged);
    expect(await w.ctx.state.balance(team.id)).toBe(page - charged);
  });
});

describe('what a pass-through checks before calling anyone', () => {
  const nothingHappens = async (path: string, body: unknown, id: string) => {
    const calls = (await billedOf(id)).calls;
    const before = await balance();
    const r =
      body === 'GET'
        ? await w.call(path)
        : await fetch(w.url + path, {
            method: 'POST',
            headers: { 'x-svc-token': w.token, 'content-type': 'application/json' },
            body: JSON.stringify(body),
          }).then(async (res) => ({ status: res.status, body: await res.json() }));
    expect((await billedOf(id)).calls).toBe(calls);
    expect(await balance()).toBe(before);
    return r;
  };

  it('a body that is not a JSON object is a 422: null, a list, a string, a number', async () => {
    for (const body of [null, [], 'coffee', 7]) {
      const r = await nothingHappens('/proxy/serper/search', body, 'serper.google.serp.organic');
      expect(r.status).toBe(422);
      expect(r.body.detail[0]).toMatchObject({ loc: ['body'], type: 'type_error.dict' });
    }
    expect((await nothingHappens('/proxy/serper/search', {}, 'serper.google.serp.organic')).body.detail[0].loc).toEqual(['body', 'q']);
  });

  it('declared types, enums and bounds, each named', async () => {
    const bad = await nothingHappens('/proxy/hunter/domain-search?domain=stripe.com&limit=lots&type=everyone', 'GET', SEARCH);
    expect(bad.status).toBe(422);
    expect(bad.body.detail.map((d: { loc: string[]; type: string }) => `${d.loc.join('.')}:${d.type}`)).toEqual([
      'query.limit:type_error.integer',
      'query.type:value_error.enum',
    ]);
    const over = await nothingHappens('/proxy/hunter/domain-search?domain=stripe.com&limit=1000', 'GET', SEARCH);
    expect(over.body.detail[0]).toMatchObject({ loc: ['query', 'limit'], msg: "'limit' of hunter.people.search must be at most 100." });
    const id = await nothingHappens('/proxy/wiza/api/individual_reveals/not-a-number', 'GET', 'wiza.people.reveal.get');
    expect(id.body.detail[0]).toMatchObject({ loc: ['path', 'id'], type: 'type_error.integer' });
    const typed = await nothingHappens('/proxy/serper/search', { q: ['a list'] }, 'serper.google.serp.organic');
    expect(typed.body.detail[0]).toMatchObject({ loc: ['body', 'q'], type: 'type_error.string' });
  });

  it('a declared parameter sent twice is a 422 naming it: svc would hold for one page size while the provider may read the other', async () => {
    const r = await nothingHappens('/proxy/hunter/domain-search?domain=stripe.com&limit=10&limit=100', 'GET', SEARCH);
    expect(r.status).toBe(422);
    expect(r.body.detail).toEqual([
      { loc: ['query', 'limit'], msg: "'limit' of hunter.people.search is sent 2 times; send it once.", type: 'value_error.repeated' },
    ]);
  });

  it('a page size of no rows, or fewer, is a 422 naming the parameter', async () => {
    for (const size of ['-5', '0']) {
      const r = await nothingHappens(`/proxy/diffbot/kg/v3/dql?query=type%3AOrganization&size=${size}`, 'GET', 'diffbot.companies.query');
      expect(r.status).toBe(422);
      expect(r.body.detail[0]).toMatchObject({ loc: ['query', 'size'], msg: `'size' of diffbot.companies.query asks for ${size} rows; send at least 1.` });
    }
  });

  it("every operation's own test request passes the checks (nothing the catalog documents is refused)", async () => {
    const { checkBody, checkQuery } = await import('../../runtime/router/pass-through-input.ts');
    const { loadRuntime } = await import('../../runtime/catalog/dist.ts');
    const { parse } = await import('yaml');
    const { readFileSync, readdirSync } = await import('node:fs');
    const ops = loadRuntime(REAL_DIST).operations;
    let checked = 0;
    for (const f of readdirSync('catalog-src/providers')) {
      for (const src of parse(readFileSync(`catalog-src/providers/${f}`, 'utf8')).operations) {
        if (!src.test_request) continue;
        const query = new URLSearchParams(Object.entries(src.test_request.queryParams ?? {}).map(([k, v]) => [k, String(v)]));
        expect(() => checkQuery(ops[src.id], query), src.id).not.toThrow();
        if (src.method !== 'GET' && src.method !== 'DELETE') expect(() => checkBody(ops[src.id], src.test_request.body), src.id).not.toThrow();
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(100);
  });

  it('an own key holding a line break or control character (anything a header cannot carry) is a 422', async () => {
    for (const key of ['abc\ndef', 'abc\r\n', 'ab\u0000c', '\tkey']) {
      const r = await w.call('/teams/me/keys/hunter', { key });
      expect(r.status, JSON.stringify(key)).toBe(422);
      expect(r.body.detail[0].msg).toContain('The hunter key holds U+');
    }
    expect((await w.call('/teams/me')).body.own_keys).toEqual([]);
  });
});

describe('which operation a path is', () => {
  it('a literal segment wins over a {param}: /v2/companies/by-email is the email lookup, not a company domain', async () => {
    for (const [path, id] of [
      ['/v2/companies/by-email?email=jane@stripe.com', 'thecompaniesapi.companies.enrich.email'],
      ['/v2/companies/by-name?name=Stripe', 'thecompaniesapi.companies.search'],
      ['/v2/companies/stripe.com', 'thecompaniesapi.companies.enrich'],
    ] as const) {
      const [charged, billed] = [(await chargedByEndpoint())[id] ?? 0, (await billedOf(id)).billed_micro];
      const r = await w.call(`/proxy/thecompaniesapi${path}`);
      expect(r.status, path).toBe(200);
      const cost = Number(r.headers.get('x-svc-cost-micro'));
      expect(cost, path).toBeGreaterThan(0);
      // charged and recorded as the operation the sandbox answered as
      expect((await chargedByEndpoint())[id] ?? 0, path).toBe(charged + cost);
      expect((await billedOf(id)).billed_micro, path).toBe(billed + cost);
    }
    // by-name with no name: the by-name operation's own required parameter, not a domain lookup
    const missing = await w.call('/proxy/thecompaniesapi/v2/companies/by-name');
    expect(missing.body.detail[0]).toMatchObject({ loc: ['query', 'name'], type: 'value_error.missing' });
  });

  it('one upstream path serving several operations: the one whose fixed values the call sends', async () => {
    await w.ctx.state.credit(w.teamId, 1_000_000);
    const ops = w.ctx.catalog.runtime.operations;
    for (const [path, id] of [
      ['/proxy/serpapi/search.json?engine=google_news&q=battery', 'serpapi.google.serp.news'],
      ['/proxy/serpapi/search.json?engine=google&q=battery', 'serpapi.google.serp.organic'],
      ['/proxy/twilio/v2/PhoneNumbers/+14155550100?Fields=identity_match', 'twilio.people.phone.identity_match'],
      ['/proxy/twilio/v2/PhoneNumbers/+14155550100', 'twilio.people.phone.validate'],
    ] as const) {
      const [charged, calls] = [(await chargedByEndpoint())[id] ?? 0, (await billedOf(id)).calls];
      const r = await w.call(path);
      expect(r.status, path).toBe(200);
      expect(r.headers.get('x-svc-cost-micro'), path).toBe(String(ops[id].price_micro));
      expect((await chargedByEndpoint())[id] ?? 0, path).toBe(charged + ops[id].price_micro);
      expect((await billedOf(id)).calls, path).toBe(calls + 1);
    }
    await w.ctx.state.credit(w.teamId, 1_000_000);
    for (const [dataToGet, id] of [
      [['phone'], 'kaspr.people.phone.find'],
      [['workEmail'], 'kaspr.people.email.find'],
    ] as const) {
      const [charged, calls] = [(await chargedByEndpoint())[id] ?? 0, (await billedOf(id)).calls];
      const r = await w.call('/proxy/kaspr/profile/linkedin', { id: 'jane-doe', name: 'Jane Doe', dataToGet });
      expect(r.status, id).toBe(200);
      expect((await billedOf(id)).calls, id).toBe(calls + 1);
      expect((await chargedByEndpoint())[id] ?? 0, id).toBe(charged + Number(r.headers.get('x-svc-cost-micro')));
    }
    const elsewhere = await w.call('/proxy/serpapi/search.json?engine=bing&q=battery');
    expect(elsewhere.status).toBe(422);
    expect(elsewhere.body.detail[0]).toMatchObject({ loc: ['query', 'engine'], msg: expect.stringContaining('google_news') });
  });

  it('one path of differently priced operations: the call that says which is charged as that one; one that does not is refused unpaid', async () => {
    await w.ctx.state.credit(w.teamId, 1_000_000);
    const ops = w.ctx.catalog.runtime.operations;
    const lushaBilled = async () =>
      Object.entries(await w.billing())
        .filter(([id]) => id.startsWith('lusha.people.'))
        .reduce((n, [, b]) => n + b.calls, 0);
    const [calls, before] = [await lushaBilled(), await balance()];
    const unsaid = await w.call('/proxy/lusha/v2/person?email=jane@acme.com');
    expect(unsaid.status).toBe(422);
    expect(unsaid.body.detail.map((d: { loc: string[] }) => d.loc.join('.')).sort()).toEqual(['query.revealEmails', 'query.revealPhones']);
    expect(await lushaBilled()).toBe(calls);
    expect(await balance()).toBe(before);
    for (const [body, id] of [
      [{ fields: ['basic_profile', 'social_handles', 'contact.business_emails'] }, 'crustdata.people.email.find'],
      [{ fields: ['basic_profile', 'contact.phone_numbers'] }, 'crustdata.people.phone.find'],
    ] as const) {
      const [charged, billed] = [(await chargedByEndpoint())[id] ?? 0, await billedOf(id)];
      const r = await w.call('/proxy/crustdata/person/enrich', { professional_network_profile_urls: ['https://www.linkedin.com/in/dvdhsu/'], ...body });
      expect(r.status, id).toBe(200);
      expect(r.headers.get('x-svc-cost-micro'), id).toBe(String(ops[id].price_micro));
      expect((await billedOf(id)).calls, id).toBe(billed.calls + 1);
      expect((await chargedByEndpoint())[id] ?? 0, id).toBe(charged + ops[id].price_micro);
    }
    const id = 'lusha.people.enrich';
    const r = await w.call('/proxy/lusha/v2/person?email=jane@acme.com&revealEmails=false&revealPhones=false');
    expect(r.status).toBe(200);
    expect(r.headers.get('x-svc-cost-micro')).toBe(String(ops[id].price_micro));
    expect(await lushaBilled()).toBe(calls + 1);
    expect((await billedOf(id)).billed_micro).toBe((await chargedByEndpoint())[id]);
  });

  it('the ledger reconciles with the sandbox for every call so far', async () => {
    const billed = Object.fromEntries(
      Object.entries(await w.billing())
        .filter(([, b]) => b.billed_micro > 0)
        .map(([id, b]) => [id, b.billed_micro]),
    );
    const charged = await chargedByEndpoint();
    for (const token of otherTokens) await chargedByEndpoint(token, charged);
    expect(charged).toEqual(billed);
  });
});

describe('a provider refusing the key', () => {
  it("svc's platform key: 502 naming the provider, nothing charged, the provider's answer beside it", async () => {
    const refused = await routedWorld(REAL_DIST, { env: { SVC_KEY_HUNTER: 'not-the-platform-key' } });
    try {
      const before = await refused.ctx.state.balance(refused.teamId);
      const r = await refused.call('/proxy/hunter/email-verifier?email=jane@stripe.com');
      expect(r.status).toBe(502);
      expect(r.headers.get('x-svc-cost-micro')).toBe('0');
      expect(r.body.detail).toBe("Hunter.io refused svc's platform key (HTTP 401); nothing was charged. Your svc credential is fine: this is on svc's side.");
      expect(r.body.provider_status).toBe(401);
      expect(r.body.provider_body.errors[0].id).toBe('authentication_failed');
      expect(JSON.stringify(r.body)).not.toContain('not-the-platform-key');
      expect(await refused.ctx.state.balance(refused.teamId)).toBe(before);
    } finally {
      await refused.close();
    }
  });

  it("the team's stored key: 502 saying it is the team's key; the key is set aside and the next call uses the platform key", async () => {
    expect((await w.call('/teams/me/keys/hunter', { key: 'revoked-team-key-1234' })).status).toBe(200);
    const r = await w.call('/proxy/hunter/email-verifier?email=jane@stripe.com');
    expect(r.status).toBe(502);
    expect(r.body.detail).toContain("refused your team's stored key for 'hunter' (HTTP 401)");
    expect(r.body.provider_status).toBe(401);
    expect(JSON.stringify(r.body)).not.toContain('revoked-team-key-1234');
    const next = await w.call('/proxy/hunter/email-verifier?email=jane@stripe.com');
    expect(next.status).toBe(200);
    expect(Number(next.headers.get('x-svc-cost-micro'))).toBeGreaterThan(0); // the platform key, paid by the balance
    // every surface that shows the plan or the keys says the stored key is set aside, and until when
    const setAside = [{ provider: 'hunter', until: expect.any(String) }];
    const me = (await w.call('/teams/me')).body;
    expect(me.own_keys).toEqual(['hunter']);
    expect(me.own_keys_set_aside).toEqual(setAside);
    const minutes = (Date.parse(me.own_keys_set_aside[0].until) - Date.now()) / 60_000;
    expect(minutes).toBeGreaterThan(5);
    expect(minutes).toBeLessThanOrEqual(10);
    const dry = { 'x-svc-route-dry-run': '1' };
    const passDry = await w.call('/proxy/hunter/email-verifier?email=jane@stripe.com', undefined, dry);
    expect(passDry.body).toMatchObject({ plan: [{ key: 'platform' }], own_keys_set_aside: setAside });
    const routedDry = await w.call('/proxy/people.email.verify', { email: 'jane@stripe.com' }, dry);
    expect(routedDry.body.own_keys_set_aside).toEqual(setAside);
    expect(routedDry.body.plan.find((a: { endpoint_id: string }) => a.endpoint_id === 'hunter.people.email.verify')?.key).toBe('platform');
  });

  it('a key stored after the refusal is used at once: the set-aside spoke of the key it replaced', async () => {
    const { team, token } = (await w.ctx.state.createTeam('replaced key team', 1_000_000))!;
    otherTokens.push(token);
    expect((await w.call('/teams/me/keys/hunter', { key: 'revoked-team-key-5678' }, {}, token)).status).toBe(200);
    expect((await w.call('/proxy/hunter/email-verifier?email=jane@stripe.com', undefined, {}, token)).status).toBe(502);
    expect((await w.call('/teams/me/keys/hunter', { key: w.keys.hunter }, {}, token)).status).toBe(200);
    const r = await w.call('/proxy/hunter/email-verifier?email=jane@stripe.com', undefined, {}, token);
    expect(r.status).toBe(200);
    expect(r.headers.get('x-svc-cost-micro')).toBe(String(w.ctx.catalog.runtime.operations['hunter.people.email.verify'].price_micro));
    expect(r.headers.get('x-svc-key')).toBe('own');
    expect(await w.ctx.state.balance(team.id)).toBe(1_000_000); // the team's own key: the provider bills the team, not svc
    const routed = await w.call('/proxy/people.email.verify', { email: 'jane@stripe.com' }, { 'x-svc-route-dry-run': '1' }, token);
    expect(routed.body.plan[0]).toMatchObject({ endpoint_id: 'hunter.people.email.verify', key: 'own' });
    expect(routed.body.own_keys_set_aside).toEqual([]);
    expect((await w.call('/teams/me', undefined, {}, token)).body.own_keys_set_aside).toEqual([]);
  });
});

describe("a path copied from the provider's docs", () => {
  it("may carry the base URL's own path (hunter's /v2): it is the same operation, called and charged once", async () => {
    await w.ctx.state.credit(w.teamId, 1_000_000);
    const before = (await billedOf('hunter.people.email.find')).calls;
    const r = await w.call('/proxy/hunter/v2/email-finder?domain=stripe.com&first_name=Jane&last_name=Doe');
    expect(r.status).toBe(200);
    expect((await billedOf('hunter.people.email.find')).calls).toBe(before + 1);
    const unknown = await w.call('/proxy/hunter/v2/no-such-thing');
    expect(unknown.status).toBe(404);
    expect(unknown.body.detail).toMatch(/^No operation of 'hunter' at \/v2\/no-such-thing; it has \d+: GET \/email-finder, .*, …$/);
  });
});

describe('a provider that cannot be reached', () => {
  it('is a 502 that still names the call and its cost (0), as every other answer of a called provider does', async () => {
    await w.ctx.state.credit(w.teamId, 1_000_000);
    const before = await balance();
    const r = await w.call('/proxy/serper/search', { q: 'reset-serper coffee' });
    expect(r.status).toBe(502);
    expect(r.body.detail).toBe('Serper could not be reached; nothing was charged.');
    expect(r.headers.get('x-svc-call-id')).toMatch(/^call_[0-9a-f]{32}$/);
    expect(r.headers.get('x-svc-cost-micro')).toBe('0');
    expect(await balance()).toBe(before);
  });
});

describe('an operation that answers with a queued job (icypeas email search)', () => {
  const FIND = 'icypeas.people.email.find';
  const search = (lastname: string) => w.call('/proxy/icypeas/email-search', { firstname: 'Jane', lastname, domainOrCompany: 'stripe.com' });

  it('is polled to its end, as a routed child is: a search that finds nothing costs nothing, as the provider bills it', async () => {
    await w.ctx.state.credit(w.teamId, 1_000_000);
    const before = await balance();
    const billed = (await billedOf(FIND)).billed_micro;
    const r = await search('nohit-icypeas');
    expect(r.status).toBe(200);
    expect(r.headers.get('x-svc-cost-micro')).toBe('0');
    expect(r.body.items[0].results.emails).toEqual([]);
    expect(await balance()).toBe(before);
    expect((await billedOf(FIND)).billed_micro).toBe(billed);
  });

  it('a search that finds the email is charged once, what the provider billed, and answered with the finished job', async () => {
    const before = await balance();
    const billed = (await billedOf(FIND)).billed_micro;
    const r = await search('Doe');
    expect(r.status).toBe(200);
    const price = w.ctx.catalog.runtime.operations[FIND].price_micro;
    expect(r.headers.get('x-svc-cost-micro')).toBe(String(price));
    expect(r.body.items[0].results.emails[0].email).toEqual(expect.any(String));
    expect(before - (await balance())).toBe(price);
    expect((await billedOf(FIND)).billed_micro - billed).toBe(price);
  });
});

describe('one path, three lookups told apart by what they ask for (FullEnrich bulk enrich)', () => {
  it.each([
    ['fullenrich.people.email.find', 'contact.work_emails'],
    ['fullenrich.people.phone.find', 'contact.phones'],
    ['fullenrich.people.email.find.personal', 'contact.personal_emails'],
  ])('%s (enrich_fields %s): polled to its end, charged what the sandbox billed, under its own id', async (id, field) => {
    await w.ctx.state.credit(w.teamId, 1_000_000);
    const before = await balance();
    const billed = (await billedOf(id)).billed_micro;
    const r = await w.call('/proxy/fullenrich/contact/enrich/bulk', {
      name: 'svc',
      data: [{ first_name: 'Jane', last_name: 'Doe', domain: 'acme.com', enrich_fields: [field] }],
    });
    expect(r.status).toBe(200);
    const charged = Number(r.headers.get('x-svc-cost-micro'));
    expect((await billedOf(id)).billed_micro - billed).toBe(charged);
    expect(before - (await balance())).toBe(charged);
    if (charged > 0) expect((await w.ctx.state.ledger(w.teamId, null)).entries[0]).toMatchObject({ kind: 'charge', endpoint_id: id });
  });
});

describe('route headers on a pass-through call', () => {
  const VERIFY = 'hunter.people.email.verify';
  const verify = (headers: Record<string, string>) => w.call('/proxy/hunter/email-verifier?email=jane@stripe.com', undefined, headers);
  const price = () => w.ctx.catalog.runtime.operations[VERIFY].price_micro;

  it('X-Svc-Route-Dry-Run answers what the call would hold, calling and charging nothing', async () => {
    await w.ctx.state.credit(w.teamId, 1_000_000);
    const before = await balance();
    const calls = (await billedOf(VERIFY)).calls;
    const r = await verify({ 'x-svc-route-dry-run': '1' });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      plan: [{ endpoint_id: VERIFY, key: 'platform', worst_cost_micro: price() }],
      excluded: [],
      worst_cost_micro: price(),
      // the team's stored hunter key its provider refused above: why the plan's key is the platform's
      own_keys_set_aside: [{ provider: 'hunter', until: expect.any(String) }],
    });
    expect(r.headers.get('x-svc-cost-micro')).toBeNull();
    expect((await billedOf(VERIFY)).calls).toBe(calls);
    expect(await balance()).toBe(before);
  });

  it('X-Svc-Route-Max-Cost below what the call may cost is a 422 before calling; at or above it, the call runs', async () => {
    const before = await balance();
    const calls = (await billedOf(VERIFY)).calls;
    const r = await verify({ 'x-svc-route-max-cost': ((price() - 1) / 1e6).toFixed(6) });
    expect(r.status).toBe(422);
    expect(r.body.detail[0]).toMatchObject({
      loc: ['header', 'X-Svc-Route-Max-Cost'],
      msg: `${VERIFY} may cost ${price()} micro-USD, more than X-Svc-Route-Max-Cost allows (${price() - 1}); nothing was called or charged.`,
    });
    expect((await billedOf(VERIFY)).calls).toBe(calls);
    expect(await balance()).toBe(before);
    const ok = await verify({ 'x-svc-route-max-cost': (price() / 1e6).toFixed(6) });
    expect(ok.status).toBe(200);
    expect(ok.headers.get('x-svc-cost-micro')).toBe(String(price()));
  });

  it('a page of more rows than asked is charged no more than X-Svc-Route-Max-Cost, and says so; without one, every row', async () => {
    const dql = 'diffbot.companies.query';
    const op = w.ctx.catalog.runtime.operations[dql];
    const one = chargeMicro(op, 'hit', 1);
    const path = '/proxy/diffbot/kg/v3/dql?query=type%3AOrganization&size=1';
    const capped = await w.call(path, undefined, { 'x-svc-route-max-cost': (one / 1e6).toFixed(6) });
    expect(capped.status).toBe(200);
    const rows = (capped.body as { data: unknown[] }).data.length;
    expect(rows).toBeGreaterThan(1); // the sandbox lists more than the one asked, as a provider may
    expect(capped.headers.get('x-svc-cost-micro')).toBe(String(one));
    expect(capped.headers.get('x-svc-cap-micro')).toBe(String(one));
    expect(capped.headers.get('x-svc-list-micro')).toBe(String(chargeMicro(op, 'hit', rows)));
    expect((await w.ctx.state.ledger(w.teamId, null)).entries[0]).toMatchObject({ kind: 'charge', amount_micro: -one, endpoint_id: dql });
    const before = await balance();
    const open = await w.call(path);
    const all = chargeMicro(op, 'hit', (open.body as { data: unknown[] }).data.length);
    expect(all).toBeGreaterThan(one);
    expect(open.headers.get('x-svc-cost-micro')).toBe(String(all));
    expect(open.headers.get('x-svc-cap-micro')).toBeNull();
    expect(await balance()).toBe(before - all);
  });

  it('a header that chooses among children, or one the router does not know, is a 422 naming it, nothing charged', async () => {
    const before = await balance();
    const calls = (await billedOf(VERIFY)).calls;
    const r = await verify({ 'x-svc-route-exclude': 'hunter', 'x-svc-route-waterfall': '0' });
    expect(r.status).toBe(422);
    expect(r.body.detail.map((d: { loc: string[] }) => d.loc[1])).toEqual(['X-Svc-Route-Waterfall', 'X-Svc-Route-Exclude']);
    expect((await verify({ 'x-svc-route-max-costs': '0' })).status).toBe(422);
    expect((await billedOf(VERIFY)).calls).toBe(calls);
    expect(await balance()).toBe(before);
  });
});

describe('an operation whose price svc cannot know (any Apify Actor)', () => {
  it("is never run on svc's platform key, where the team would pay 0 and svc the Actor's bill: 403, nothing called", async () => {
    const calls = Object.values(await w.billing()).reduce((n, b) => n + b.calls, 0);
    const r = await w.call('/proxy/apify/acts/someone~expensive-actor/runs', { startUrls: ['https://example.com'] });
    expect(r.status).toBe(403);
    expect(r.body.detail).toBe("svc holds no key for 'apify' that may serve this operation; store your own with POST /teams/me/keys/apify.");
    expect(Object.values(await w.billing()).reduce((n, b) => n + b.calls, 0)).toBe(calls);
  });

  it("nor is Apify's private user data, which holds the account's proxy password: 403, nothing called", async () => {
    const calls = Object.values(await w.billing()).reduce((n, b) => n + b.calls, 0);
    const r = await w.call('/proxy/apify/users/me');
    expect(r.status).toBe(403);
    expect(Object.values(await w.billing()).reduce((n, b) => n + b.calls, 0)).toBe(calls);
  });
});

describe("an operation that reports on the key's own account (credits, usage, key scopes)", () => {
  it("runs on the team's own key only: on svc's key a team would read svc's provider account (403 naming the fix, nothing called)", async () => {
    const calls = Object.values(await w.billing()).reduce((n, b) => n + b.calls, 0);
    const r = await w.call('/proxy/hunter/account');
    expect(r.status).toBe(403);
    expect(r.body.detail).toBe("svc holds no key for 'hunter' that may serve this operation; store your own with POST /teams/me/keys/hunter.");
    expect(Object.values(await w.billing()).reduce((n, b) => n + b.calls, 0)).toBe(calls);
  });
});
