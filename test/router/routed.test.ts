// Routed calls against the real sandbox on loopback, over the fixture catalog whose prices and
// children are known: route headers, waterfall, ceiling, billing, verification, async, keys.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURE_DIST } from '../helpers/paths.ts';
import { routedWorld, type RoutedWorld } from '../helpers/routed.ts';

let w: RoutedWorld;
const seen: string[] = [];
const call = async (cap: string, body: unknown, headers: Record<string, string> = {}) => {
  const r = await w.call(`/proxy/${cap}`, body, headers);
  seen.push(JSON.stringify(r.body), JSON.stringify([...r.headers.entries()]));
  return r;
};
const outcomes = (r: { body: { _svc: { tried: Array<{ endpoint_id: string; outcome: string; reason?: string }> } } }) =>
  r.body._svc.tried.map((t) => `${t.endpoint_id}:${t.outcome}`);

beforeAll(async () => {
  w = await routedWorld(FIXTURE_DIST);
});
afterAll(() => w.close());

describe('the waterfall', () => {
  it('a hit names the child that served, what was tried and what it cost', async () => {
    const r = await call('google.serp.organic', { q: 'coffee' });
    expect(r.status).toBe(200);
    expect(r.headers.get('x-svc-served-by')).toBe('searchco.google.serp.organic');
    expect(r.headers.get('x-svc-cost-micro')).toBe('1000');
    expect(r.body.output.results.length).toBeGreaterThan(0);
    expect(r.body.output.results[0]).toEqual(expect.objectContaining({ title: expect.any(String), url: expect.any(String) }));
    expect(r.body.raw.organic).toBeDefined();
    expect(r.body._svc).toMatchObject({ served_by: 'searchco.google.serp.organic', cost_micro: 1000 });
    expect(r.body._svc.tried[0]).toEqual(
      expect.objectContaining({ endpoint_id: 'searchco.google.serp.organic', outcome: 'hit', status: 200, cost_micro: 1000, ms: expect.any(Number) }),
    );
    // what does not apply is left out, not sent as null
    expect(Object.keys(r.body._svc).sort()).toEqual(['call_id', 'cost_micro', 'served_by', 'tried']);
    expect(Object.keys(r.body._svc.tried[0]).sort()).toEqual(['cost_micro', 'endpoint_id', 'ms', 'outcome', 'status']);
  });

  // zerobounce (8000 a check) goes first: its misses are free; checkco (1000) bills a miss, so it goes after.
  it('a miss falls through to the next child', async () => {
    const r = await call('people.email.verify', { email: 'nohit-zerobounce@acme.com' });
    expect(outcomes(r)).toEqual(['zerobounce.people.email.verify:miss', 'checkco.people.email.verify:hit']);
    expect(r.body._svc.tried.map((t: { cost_micro: number }) => t.cost_micro)).toEqual([0, 1000]);
    expect(r.body._svc.cost_micro).toBe(1000);
    expect(r.body.output.status).toEqual(expect.any(String));
  });

  it('all misses answer 200 with the miss output; a miss is charged only where the child bills it', async () => {
    const r = await call('people.email.verify', { email: 'nohit@acme.com' });
    expect(r.status).toBe(200);
    expect(r.body.output.status).toBeNull();
    expect(r.body._svc.served_by).toBeNull();
    expect(outcomes(r)).toEqual(['zerobounce.people.email.verify:miss', 'checkco.people.email.verify:miss']);
    expect(r.body._svc.tried.map((t: { cost_micro: number }) => t.cost_micro)).toEqual([0, 1000]);
    expect(r.body._svc.cost_micro).toBe(1000);
  });

  it('an error is not a miss: it costs nothing and the waterfall goes on', async () => {
    const r = await call('people.email.verify', { email: 'fail-zerobounce@acme.com' });
    expect(r.body._svc.tried[0]).toMatchObject({ outcome: 'error', status: 500, cost_micro: 0 });
    expect(r.body._svc.served_by).toBe('checkco.people.email.verify');
  });

  it('every child erroring is a 502 with the same _svc block', async () => {
    const r = await call('people.email.verify', { email: 'fail-checkco.garbage-zerobounce@acme.com' });
    expect(r.status).toBe(502);
    expect(typeof r.body.detail).toBe('string');
    expect(r.body._svc.tried.map((t: { reason: string }) => t.reason)).toEqual(['unparsable body', 'status 500']);
    expect(r.body._svc.cost_micro).toBe(0);
  });

  it('X-Svc-Route-Waterfall: 0 stops at the first miss', async () => {
    const r = await call('people.email.verify', { email: 'nohit-zerobounce@acme.com' }, { 'X-Svc-Route-Waterfall': '0' });
    expect(outcomes(r)).toEqual(['zerobounce.people.email.verify:miss']);
    expect(r.body.output.status).toBeNull();
  });

  it('X-Svc-Route-Prefer and X-Svc-Route-Exclude reorder and remove providers', async () => {
    const preferred = await call('people.email.verify', { email: 'jane@acme.com' }, { 'X-Svc-Route-Prefer': 'checkco' });
    expect(preferred.body._svc.served_by).toBe('checkco.people.email.verify');
    const excluded = await call('people.email.verify', { email: 'nohit-zerobounce@acme.com' }, { 'X-Svc-Route-Exclude': 'checkco' });
    expect(outcomes(excluded)).toEqual(['zerobounce.people.email.verify:miss']);
  });
});

describe('the cost ceiling', () => {
  it('skips a child whose worst case would pass the ceiling', async () => {
    const r = await call('people.email.verify', { email: 'nohit-checkco@acme.com' }, { 'X-Svc-Route-Max-Cost': '0.005' });
    expect(r.body._svc.tried[1]).toMatchObject({ endpoint_id: 'zerobounce.people.email.verify', outcome: 'skipped', reason: 'over_ceiling', cost_micro: 0 });
    expect(r.body._svc.cost_micro).toBeLessThanOrEqual(5000);
  });

  it('answers 200 miss with stopped max_cost when nothing fits', async () => {
    const r = await call('people.email.verify', { email: 'jane@acme.com' }, { 'X-Svc-Route-Max-Cost': '0' });
    expect(r.status).toBe(200);
    expect(r.body._svc.stopped).toBe('max_cost');
    expect(r.headers.get('x-svc-stopped')).toBe('max_cost');
    expect(r.body._svc.cost_micro).toBe(0);
  });

  it('prices per-result children at price x limit in the worst case', async () => {
    const r = await call('google.serp.organic', { q: 'coffee', limit: 100 }, { 'X-Svc-Route-Dry-Run': '1', 'X-Svc-Route-Max-Cost': '0.01' });
    expect(r.body.excluded).toContainEqual({ endpoint_id: 'searchco.google.serp.organic.rows', reason: 'over_ceiling' });
  });

  it.each(['abc', '-1', '', 'Infinity', '0x10', '1e10'])('a malformed ceiling (%s) is a 422 naming the header', async (v) => {
    const r = await call('google.serp.organic', { q: 'coffee' }, { 'X-Svc-Route-Max-Cost': v });
    expect(r.status).toBe(422);
    expect(r.body.detail[0].loc).toEqual(['header', 'X-Svc-Route-Max-Cost']);
  });
});

describe('filters', () => {
  it('names filters the serving child ignored', async () => {
    // With limit 1 the per-row child is the cheaper one, and it cannot apply a country.
    const r = await call('google.serp.organic', { q: 'coffee', country: 'de', limit: 1 });
    expect(r.body._svc.served_by).toBe('searchco.google.serp.organic.rows');
    expect(r.headers.get('x-svc-ignored-filters')).toBe('country');
    expect(r.body._svc.cost_micro).toBe(500);
  });

  it('strict filters leave out children that cannot apply a sent filter', async () => {
    const r = await call('google.serp.organic', { q: 'coffee', country: 'de', limit: 1 }, { 'X-Svc-Route-Strict-Filters': '1' });
    expect(r.body._svc.served_by).toBe('searchco.google.serp.organic');
    expect(r.headers.get('x-svc-ignored-filters')).toBeNull();
  });
});

describe('verification', () => {
  it('a hit the verifier calls invalid counts as a miss, and the waterfall goes on', async () => {
    const r = await call(
      'people.email.find',
      { domain: 'stripe.com', first_name: 'Jane', last_name: 'Doe' },
      { 'X-Svc-Route-Verify': 'true', 'X-Svc-Route-Exclude': 'zerobounce' },
    );
    expect(r.status).toBe(200);
    expect(r.body.output.email).toBeNull();
    // each find is followed by its check: every attempt is listed, and they add up to the call's cost
    expect(r.body._svc.tried.map((t: { endpoint_id: string; outcome: string; reason?: string }) => `${t.endpoint_id}:${t.outcome}:${t.reason ?? ''}`)).toEqual([
      'findco.people.email.find:miss:verification said invalid',
      'checkco.people.email.verify:hit:',
      'findco.people.email.find.bulk:miss:verification said invalid',
      'checkco.people.email.verify:hit:',
    ]);
    // two finds (20000 + 40000) and two checks (1000 each), all inside the ceiling
    expect(r.body._svc.cost_micro).toBe(62000);
    expect(r.body._svc.tried.reduce((s: number, t: { cost_micro: number }) => s + t.cost_micro, 0)).toBe(62000);
  });

  it('a valid verification serves the hit and reports _svc.verification', async () => {
    const r = await call(
      'people.email.find',
      { domain: 'stripe.com', first_name: 'Jane', last_name: 'Doe' },
      { 'X-Svc-Route-Verify': 'true', 'X-Svc-Route-Exclude': 'checkco' },
    );
    expect(r.body._svc.served_by).toBe('findco.people.email.find');
    expect(r.body._svc.verification).toEqual({ verdict: 'valid', checked: 'deliverable', served_by: 'zerobounce.people.email.verify', cost_micro: 8000 });
    expect(r.body._svc.cost_micro).toBe(28000);
    expect(r.body._svc.tried.map((t: { endpoint_id: string; cost_micro: number }) => [t.endpoint_id, t.cost_micro])).toEqual([
      ['findco.people.email.find', 20000],
      ['zerobounce.people.email.verify', 8000],
    ]);
  });
});

describe('async children', () => {
  it('polls a submit-then-poll child to its result, billed once', async () => {
    const before = (await w.billing())['findco.people.email.find.bulk']?.calls ?? 0;
    // A one-word name cannot be split, so only the child taking {domain, full_name} is eligible.
    const r = await call('people.email.find', { domain: 'stripe.com', full_name: 'Cher' });
    expect(r.body._svc.served_by).toBe('findco.people.email.find.bulk');
    expect(r.body.output.email).toEqual(expect.any(String));
    expect(r.body._svc.cost_micro).toBe(40000);
    expect((await w.billing())['findco.people.email.find.bulk'].calls).toBe(before + 1);
  });

  it('a job that ends not_found is a miss', async () => {
    const r = await call('people.email.find', { domain: 'stripe.com', full_name: 'nohit-findco' });
    expect(r.body._svc.tried[0]).toMatchObject({ endpoint_id: 'findco.people.email.find.bulk', outcome: 'miss', cost_micro: 0 });
  });
});

describe('dry run, deadline, derivation', () => {
  it('X-Svc-Route-Dry-Run answers the plan without calling anyone or charging', async () => {
    const billing = JSON.stringify(await w.billing());
    const r = await call('people.email.find', { domain: 'stripe.com', full_name: 'Jane Doe' }, { 'X-Svc-Route-Dry-Run': '1' });
    expect(r.body).toEqual({
      plan: [
        { endpoint_id: 'findco.people.email.find', key: 'platform', worst_cost_micro: 20000 },
        { endpoint_id: 'findco.people.email.find.bulk', key: 'platform', worst_cost_micro: 40000 },
      ],
      excluded: [],
      worst_cost_micro: 60000,
      own_keys_set_aside: [],
    });
    expect(JSON.stringify(await w.billing())).toBe(billing);
  });

  it('lists every child left out with its reason', async () => {
    const r = await call('people.email.find', { domain: 'stripe.com', full_name: 'Jane Doe' }, { 'X-Svc-Route-Dry-Run': '1', 'X-Svc-Route-Exclude': 'findco' });
    expect(r.body.plan).toEqual([]);
    expect(r.body.excluded.map((e: { reason: string }) => e.reason)).toEqual(['excluded', 'excluded']);
  });

  it('X-Svc-Route-Timeout-Ms bounds the whole call', async () => {
    const r = await call('people.email.verify', { email: 'slow-zerobounce@acme.com' }, { 'X-Svc-Route-Timeout-Ms': '300' });
    expect(r.status).toBe(502);
    expect(r.body._svc.tried.map((t: { reason: string }) => t.reason)).toEqual(['timeout', 'deadline']);
  });
});

describe('bad calls change nothing', () => {
  it('401 without a credential, 404 for an unknown capability, 422 for unknown fields or no identity', async () => {
    expect((await w.call('/proxy/google.serp.organic', { q: 'x' }, {}, 'svc_wrong')).status).toBe(401);
    expect((await call('people.telepathy', { q: 'x' })).status).toBe(404);
    const get = await w.call('/proxy/people.email.find');
    expect(get.status).toBe(405);
    expect(get.body.detail).toMatch(/POST/);
    const unknown = await call('google.serp.organic', { q: 'x', depth: 3 });
    expect(unknown.status).toBe(422);
    expect(unknown.body.detail[0].loc).toEqual(['body', 'depth']);
    const typed = await call('google.serp.organic', { q: 'x', limit: 'ten' });
    expect(typed.body.detail[0].loc).toEqual(['body', 'limit']);
    const none = await call('people.email.find', { title: 'cto' });
    expect(none.status).toBe(422);
    const empty = await call('people.email.find', { domain: 'stripe.com' });
    expect(empty.status).toBe(422);
    expect(empty.body.detail[0].msg).toMatch(/\{domain, full_name\}/);
  });

  it('422 for a url field that is no web address; addresses with or without a scheme pass', async () => {
    for (const bad of ['not a url', '???', 'jane@acme.com', 'https://a b.com']) {
      const r = await call('people.email.find', { linkedin_url: bad });
      expect(r.status, bad).toBe(422);
      expect(r.body.detail[0]).toMatchObject({
        loc: ['body', 'linkedin_url'],
        msg: "'linkedin_url' must be a LinkedIn address, such as linkedin.com/in/jane.",
      });
    }
    for (const good of ['linkedin.com/in/jane-doe', 'https://www.linkedin.com/in/jane-doe/']) {
      // (with a name and domain too: no fixture child takes a LinkedIn address alone)
      expect(
        (await call('people.email.find', { linkedin_url: good, domain: 'stripe.com', full_name: 'Jane Doe' }, { 'X-Svc-Route-Dry-Run': '1' })).status,
        good,
      ).toBe(200);
    }
  });

  it('402 before any child runs when the balance is below the cheapest attempt', async () => {
    const broke = (await w.ctx.state.createTeam('broke team', 500))!;
    const billing = JSON.stringify(await w.billing());
    const r = await w.call('/proxy/people.email.verify', { email: 'jane@acme.com' }, {}, broke.token);
    expect(r.status).toBe(402);
    expect(r.body.detail).toBe(
      'Balance too low: the cheapest eligible attempt may cost 1000 micro-USD and the balance is 500 micro-USD; nothing was called or charged. Add credit and retry.',
    );
    expect(JSON.stringify(await w.billing())).toBe(billing);
    expect(await w.ctx.state.balance(broke.team.id)).toBe(500);
  });
});

describe('paths under a capability', () => {
  it('its batch with another method is a 405 about the batch; any other path under it a 404 naming the two there are', async () => {
    const get = await w.call('/proxy/people.email.verify/batch');
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST');
    expect(get.body.detail).toBe('The batch of people.email.verify takes POST with an NDJSON body, one subject per line.');
    // a POST was told "call it with POST"
    const other = await w.call('/proxy/people.email.verify/batch/x', { email: 'jane@acme.com' });
    expect(other.status).toBe(404);
    expect(other.body.detail).toBe(
      'No path /batch/x under the routed capability people.email.verify: POST /proxy/people.email.verify calls it for one subject, POST /proxy/people.email.verify/batch for a list.',
    );
  });
});

describe('request bodies', () => {
  it('a body file saved with a UTF-8 byte order mark is read as the JSON it holds, as a batch line is', async () => {
    const body = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(JSON.stringify({ q: 'coffee' }))]);
    const r = await fetch(`${w.url}/proxy/google.serp.organic`, {
      method: 'POST',
      headers: { 'x-svc-token': w.token, 'content-type': 'application/json' },
      body,
    });
    expect(r.status).toBe(200);
    expect((await r.json())._svc.served_by).toBe('searchco.google.serp.organic');
  });
});

describe('concurrent calls of one team', () => {
  it('cannot spend the same balance twice: the call that finds it held answers 402, nothing called or charged, to retry when the other finishes', async () => {
    const lw = await routedWorld(FIXTURE_DIST, { creditMicro: 1000 });
    try {
      const ask = (n: number) =>
        lw.call('/proxy/people.email.verify', { email: `latency200ms-checkco.n${n}@acme.com` }, { 'X-Svc-Route-Exclude': 'zerobounce' });
      const [one, two] = await Promise.all([ask(1), ask(2)]);
      expect([one.status, two.status].sort()).toEqual([200, 402]);
      const served = [one, two].find((r) => r.status === 200)!;
      expect(served.body._svc.tried[0].outcome).toBe('hit');
      // not a 200 miss: a caller would read "nothing found" for a subject nobody looked up
      const starved = [one, two].find((r) => r.status === 402)!;
      expect(starved.body.detail).toBe(
        "Balance too low for this call now: the cheapest attempt may cost 1000 micro-USD and the balance is 1000 micro-USD, less what the team's calls in flight hold; nothing was called or charged. Retry when they finish, or add credit.",
      );
      expect(starved.body.call_id).toMatch(/^call_/);
      expect(await lw.ctx.state.balance(lw.teamId)).toBe(0);
    } finally {
      await lw.close();
    }
  });
});

describe('identical concurrent calls', () => {
  it('share one upstream waterfall and one charge', async () => {
    const before = (await w.billing())['searchco.google.serp.organic']?.calls ?? 0;
    const balance = await w.ctx.state.balance(w.teamId);
    const rs = await Promise.all(Array.from({ length: 5 }, () => call('google.serp.organic', { q: 'latency150ms-searchco espresso' })));
    expect(rs.every((r) => r.status === 200 && r.body._svc.served_by === 'searchco.google.serp.organic')).toBe(true);
    expect(new Set(rs.map((r) => JSON.stringify(r.body.output))).size).toBe(1);
    expect((await w.billing())['searchco.google.serp.organic'].calls).toBe(before + 1);
    expect(await w.ctx.state.balance(w.teamId)).toBe(balance - 1000);
    // charged once: the first caller's answer says 1000, each joined caller's says 0 and why
    expect(rs.map((r) => r.headers.get('x-svc-cost-micro')).sort()).toEqual(['0', '0', '0', '0', '1000']);
    expect(rs.map((r) => r.body._svc.cost_micro).reduce((a, b) => a + b, 0)).toBe(1000);
    expect(rs.filter((r) => r.body._svc.shared === true)).toHaveLength(4);
  });
});

describe('pass-through calls', () => {
  it('charge nothing for an answer that is not JSON, as a routed child would not be', async () => {
    const balance = await w.ctx.state.balance(w.teamId);
    const r = await fetch(`${w.url}/proxy/zerobounce/validate?email=garbage-zerobounce@acme.com`, { headers: { 'x-svc-token': w.token } });
    expect(r.status).toBe(200); // the provider's own status, passed on
    const text = await r.text();
    expect(() => JSON.parse(text)).toThrow(); // the provider's truncated body, passed on as it came
    expect(r.headers.get('x-svc-cost-micro')).toBe('0');
    expect(await w.ctx.state.balance(w.teamId)).toBe(balance);
  });

  it('refuse a call missing a required parameter before calling or charging anyone', async () => {
    const calls = (await w.billing())['zerobounce.people.email.verify']?.calls ?? 0;
    const balance = await w.ctx.state.balance(w.teamId);
    const r = await w.call('/proxy/zerobounce/validate?ip_address=1.2.3.4');
    expect(r.status).toBe(422);
    expect(r.body.detail).toEqual([{ loc: ['query', 'email'], msg: "'email' is required by zerobounce.people.email.verify.", type: 'value_error.missing' }]);
    expect((await w.billing())['zerobounce.people.email.verify']?.calls ?? 0).toBe(calls);
    expect(await w.ctx.state.balance(w.teamId)).toBe(balance);
  });

  it("call one operation with the key injected, answered in the provider's own shape", async () => {
    const r = await w.call('/proxy/zerobounce/validate?email=jane@acme.com');
    expect(r.status).toBe(200);
    expect(r.body.status).toBe('valid');
    expect(r.headers.get('x-svc-cost-micro')).toBe('8000');
  });

  it('a strict_query operation refuses undeclared parameters; only declared methods and paths pass', async () => {
    const extra = await w.call('/proxy/zerobounce/validate?email=jane@acme.com&api_key=mine');
    expect(extra.status).toBe(422);
    expect(extra.body.detail[0].loc).toEqual(['query', 'api_key']);
    expect((await w.call('/proxy/zerobounce/validate', { email: 'x' })).status).toBe(405);
    const nowhere = await w.call('/proxy/zerobounce/nothing-here');
    expect(nowhere.status).toBe(404);
    expect(nowhere.body.detail).toContain('GET /validate'); // the operations it does have
    expect((await w.call('/proxy/nobody/validate')).status).toBe(404);
    expect((await w.call('/proxy/constructor/validate')).status).toBe(404); // not a key of every object
    // a credential first, for every call under the proxy prefix
    for (const path of ['/proxy/constructor/validate', '/proxy/nobody/validate', '/proxy/zerobounce/validate?email=a@b.co'])
      expect((await w.call(path, undefined, {}, '')).status).toBe(401);
    expect((await w.call('/proxy/people.telepathy', { q: 'x' }, {}, '')).status).toBe(401);
    for (const p of ['/proxy/zerobounce/..%2f..%2fadmin', '/proxy/zerobounce/%2e%2e/validate']) expect([400, 404]).toContain((await w.call(p)).status);
  });

  it('a per-result operation is billed per row, as the routed call bills it', async () => {
    const r = await w.call('/proxy/searchco/rows/google?query=coffee&size=3');
    expect(r.status).toBe(200);
    const rows = r.body.data.rows.length;
    expect(rows).toBeGreaterThan(0);
    expect(r.headers.get('x-svc-cost-micro')).toBe(String(500 * rows));
  });

  it('a miss of a child that does not bill misses costs nothing', async () => {
    const r = await w.call('/proxy/zerobounce/validate?email=nohit-zerobounce@acme.com');
    expect(r.status).toBe(200);
    expect(r.headers.get('x-svc-cost-micro')).toBe('0');
  });
});

describe('money and secrets', () => {
  it('the ledger reconciles to the micro-dollar with what the sandbox billed', async () => {
    const charged: Record<string, number> = {};
    let cursor: string | null = '';
    while (cursor !== null) {
      const page = await w.call(`/teams/me/ledger${cursor ? `?cursor=${cursor}` : ''}`);
      for (const e of page.body.entries) if (e.kind === 'charge') charged[e.endpoint_id] = (charged[e.endpoint_id] ?? 0) - e.amount_micro;
      cursor = page.body.next_cursor;
    }
    const billed = Object.fromEntries(
      Object.entries(await w.billing())
        .filter(([, b]) => b.billed_micro > 0)
        .map(([id, b]) => [id, b.billed_micro]),
    );
    expect(charged).toEqual(billed);
    const account = await w.call('/teams/me');
    expect(account.body.balance_micro).toBe(10_000_000 - Object.values(billed).reduce((a, b) => a + b, 0));
  });

  it('observations feed the catalog entry', async () => {
    const r = await w.call('/catalog/endpoints/checkco.people.email.verify');
    expect(r.body.endpoint.observed.samples).toBeGreaterThan(3);
    expect(r.body.endpoint.observed.hit_rate).toBeGreaterThanOrEqual(0);
  });

  it('no provider key or token appears in any answer', () => {
    const all = seen.join('\n');
    for (const key of Object.values(w.keys)) for (const part of key.split(':').filter((p) => p.length > 5)) expect(all).not.toContain(part);
    expect(all).not.toContain(w.token);
  });
});

describe('own keys', () => {
  it('are tried first, count in cost_micro and cost the balance nothing', async () => {
    const own = await routedWorld(FIXTURE_DIST);
    try {
      await own.call('/teams/me/keys/zerobounce', { key: own.keys.zerobounce });
      const dry = await own.call('/proxy/people.email.verify', { email: 'jane@acme.com' }, { 'X-Svc-Route-Dry-Run': '1' });
      expect(dry.body.plan[0]).toMatchObject({ endpoint_id: 'zerobounce.people.email.verify', key: 'own' });
      const before = await own.ctx.state.balance(own.teamId);
      const r = await own.call('/proxy/people.email.verify', { email: 'jane@acme.com' });
      expect(r.body._svc).toMatchObject({ served_by: 'zerobounce.people.email.verify', cost_micro: 8000 });
      expect(await own.ctx.state.balance(own.teamId)).toBe(before);
    } finally {
      await own.close();
    }
  });

  it('an own key the provider refuses is set aside and the child retried on the platform key', async () => {
    const own = await routedWorld(FIXTURE_DIST);
    try {
      await own.call('/teams/me/keys/zerobounce', { key: 'revoked-key-123456' });
      const r = await own.call('/proxy/people.email.verify', { email: 'jane@acme.com' });
      expect(r.body._svc.tried.map((t: { outcome: string; status: number }) => `${t.outcome}:${t.status}`)).toEqual(['error:401', 'hit:200']);
      expect(r.body._svc.served_by).toBe('zerobounce.people.email.verify');
      expect(JSON.stringify(r.body)).not.toContain('revoked-key-123456');
      const dry = await own.call('/proxy/people.email.verify', { email: 'jane@acme.com' }, { 'X-Svc-Route-Dry-Run': '1' });
      expect(dry.body.plan.find((p: { endpoint_id: string }) => p.endpoint_id === 'zerobounce.people.email.verify').key).toBe('platform');
    } finally {
      await own.close();
    }
  });
});

describe('own keys in the answer', () => {
  it("an attempt on the team's own key says so in _svc.tried, so the answer reconciles with the ledger, which has no charge for it", async () => {
    const own = await routedWorld(FIXTURE_DIST);
    try {
      await own.call('/teams/me/keys/zerobounce', { key: own.keys.zerobounce });
      const r = await own.call('/proxy/people.email.verify', { email: 'nohit-zerobounce.jane@acme.com' });
      expect(r.body._svc.tried.map((t: { endpoint_id: string; key?: string }) => `${t.endpoint_id}:${t.key ?? 'platform'}`)).toEqual([
        'zerobounce.people.email.verify:own',
        'checkco.people.email.verify:platform',
      ]);
      const paid = r.body._svc.tried.filter((t: { key?: string }) => t.key !== 'own').reduce((n: number, t: { cost_micro: number }) => n + t.cost_micro, 0);
      const ledger = (await own.call('/teams/me/ledger')).body.entries.filter((e: { call_id?: string }) => e.call_id === r.body._svc.call_id);
      expect(ledger.reduce((n: number, e: { amount_micro: number }) => n - e.amount_micro, 0)).toBe(paid);
      // a refused own key, then the same child on the platform key: two entries told apart
      await own.call('/teams/me/keys/zerobounce', { key: 'revoked-key-123456' });
      const retried = await own.call('/proxy/people.email.verify', { email: 'jane@acme.com' });
      expect(retried.body._svc.tried.map((t: { outcome: string; key?: string }) => `${t.outcome}:${t.key ?? 'platform'}`)).toEqual([
        'error:own',
        'hit:platform',
      ]);
    } finally {
      await own.close();
    }
  });
});

describe('children that keep erroring', () => {
  it('are skipped with circuit_open after five errors in a row', async () => {
    const cw = await routedWorld(FIXTURE_DIST);
    try {
      for (let i = 0; i < 5; i++)
        expect((await cw.call('/proxy/people.email.verify', { email: `fail-zerobounce.n${i}@acme.com` }, { 'X-Svc-Route-Exclude': 'checkco' })).status).toBe(
          502,
        );
      const dry = await cw.call('/proxy/people.email.verify', { email: 'jane@acme.com' }, { 'X-Svc-Route-Dry-Run': '1' });
      expect(dry.body.excluded).toContainEqual({ endpoint_id: 'zerobounce.people.email.verify', reason: 'circuit_open' });
    } finally {
      await cw.close();
    }
  });
});

describe('measured hit rates', () => {
  it('reorder the plan by cost per hit once a child has 20 decided samples', async () => {
    const mw = await routedWorld(FIXTURE_DIST);
    try {
      const plan = async () =>
        (await mw.call('/catalog/endpoints/svc.people.email.verify')).body.routing.plan.map((p: { endpoint_id: string }) => p.endpoint_id);
      expect(await plan()).toEqual(['checkco.people.email.verify', 'zerobounce.people.email.verify']);
      // checkco is cheaper per call but misses every time here: 19 decided samples are not enough...
      const alone = { 'X-Svc-Route-Exclude': 'zerobounce' };
      for (let i = 0; i < 19; i++) await mw.call('/proxy/people.email.verify', { email: `nohit-checkco.p${i}@acme.com` }, alone);
      await new Promise((r) => setTimeout(r, 300));
      expect((await plan())[0]).toBe('checkco.people.email.verify');
      // ...the 20th makes its measured cost per hit (price / hit rate 0) the highest.
      await mw.call('/proxy/people.email.verify', { email: 'nohit-checkco.p19@acme.com' }, alone);
      await new Promise((r) => setTimeout(r, 300));
      const entry = await mw.call('/catalog/endpoints/svc.people.email.verify');
      expect(entry.body.routing.plan[0]).toMatchObject({ endpoint_id: 'zerobounce.people.email.verify' });
      expect(entry.body.routing.plan[1]).toMatchObject({ endpoint_id: 'checkco.people.email.verify', hit_rate: 0 });
      expect(entry.body.siblings.find((s: { id: string }) => s.id === 'checkco.people.email.verify').observed).toMatchObject({ decided: 20, hit_rate: 0 });
      // the live plan puts zerobounce first throughout: its misses are free (the planner's own test shows the measured reorder)
      const live = await mw.call('/proxy/people.email.verify', { email: 'jane@acme.com' }, { 'X-Svc-Route-Dry-Run': '1' });
      expect(live.body.plan.map((p: { endpoint_id: string }) => p.endpoint_id)).toEqual(['zerobounce.people.email.verify', 'checkco.people.email.verify']);
    } finally {
      await mw.close();
    }
  });
});

describe('a provider that redirects', () => {
  it('is not followed: neither the routed call nor the pass-through leaves the provider host', async () => {
    const { createServer } = await import('node:http');
    let stolen = 0;
    const elsewhere = createServer((_q, s) => {
      stolen++;
      s.end('{}');
    });
    await new Promise<void>((r) => elsewhere.listen(0, '127.0.0.1', r));
    const to = `http://127.0.0.1:${(elsewhere.address() as { port: number }).port}/steal`;
    const redirector = createServer((_q, s) => {
      s.writeHead(302, { location: to });
      s.end();
    });
    await new Promise<void>((r) => redirector.listen(0, '127.0.0.1', r));
    const rw = await routedWorld(FIXTURE_DIST, { env: { SVC_BASE_ZEROBOUNCE: `http://127.0.0.1:${(redirector.address() as { port: number }).port}` } });
    try {
      const routed = await rw.call('/proxy/people.email.verify', { email: 'jane@acme.com' }, { 'X-Svc-Route-Exclude': 'checkco' });
      expect(routed.status).toBe(502);
      expect(routed.body._svc.tried[0]).toMatchObject({ outcome: 'error', status: 302 });
      const passed = await rw.call('/proxy/zerobounce/validate?email=jane@acme.com');
      expect(passed.status).toBe(302);
      expect(passed.headers.get('x-svc-cost-micro')).toBe('0');
      expect(stolen).toBe(0);
    } finally {
      await rw.close();
      redirector.close();
      elsewhere.close();
    }
  });
});

describe('a per-row child that answers more rows than it was asked', () => {
  it('is billed for the rows asked, never past the worst case it was planned and held at', async () => {
    const { createServer } = await import('node:http');
    const rows = Array.from({ length: 7 }, (_, i) => ({ rank: i + 1, title: `r${i}`, url: `https://r${i}.test`, text: 't' }));
    const generous = createServer((_q, s) => {
      s.setHeader('content-type', 'application/json');
      s.end(JSON.stringify({ data: { rows } }));
    });
    await new Promise<void>((r) => generous.listen(0, '127.0.0.1', r));
    const rw = await routedWorld(FIXTURE_DIST, { env: { SVC_BASE_SEARCHCO: `http://127.0.0.1:${(generous.address() as { port: number }).port}` } });
    try {
      const before = (await rw.call('/teams/me')).body.balance_micro;
      // at limit 1 the per-row child is the cheaper one and runs first
      const r = await rw.call('/proxy/google.serp.organic', { q: 'coffee', limit: 1 }, { 'X-Svc-Route-Max-Cost': '0.0005' });
      expect(r.body._svc.served_by).toBe('searchco.google.serp.organic.rows');
      expect(r.body._svc.cost_micro).toBe(500); // 7 rows answered, 1 asked: the ceiling of 500 holds
      expect(r.headers.get('x-svc-cost-micro')).toBe('500');
      expect((await rw.call('/teams/me')).body.balance_micro).toBe(before - 500);
    } finally {
      await rw.close();
      generous.close();
    }
  });
});

describe('a per-row pass-through', () => {
  it('holds price × the rows asked and answers 402 before calling when the balance cannot cover them', async () => {
    const rw = await routedWorld(FIXTURE_DIST, { creditMicro: 1_000 });
    try {
      const r = await rw.call('/proxy/searchco/rows/google?query=coffee&size=3');
      expect(r.status).toBe(402);
      expect(r.body.detail).toContain('1500 micro-USD for the 3 rows this call may return and the balance is 1000 micro-USD;');
      expect((await rw.billing())['searchco.google.serp.organic.rows']).toBeUndefined();
      expect((await rw.call('/teams/me')).body.balance_micro).toBe(1_000);
      const two = await rw.call('/proxy/searchco/rows/google?query=coffee&size=2');
      expect(two.status).toBe(200);
      expect(two.headers.get('x-svc-cost-micro')).toBe(String(500 * two.body.data.rows.length));
    } finally {
      await rw.close();
    }
  });

  it('is charged every row the provider answers, past the rows asked, while the balance covers them', async () => {
    const { createServer } = await import('node:http');
    const rows = Array.from({ length: 7 }, (_, i) => ({ rank: i + 1, title: `r${i}`, url: `https://r${i}.test`, text: 't' }));
    const generous = createServer((_q, s) => {
      s.setHeader('content-type', 'application/json');
      s.end(JSON.stringify({ data: { rows } }));
    });
    await new Promise<void>((r) => generous.listen(0, '127.0.0.1', r));
    const rw = await routedWorld(FIXTURE_DIST, {
      creditMicro: 10_000,
      env: { SVC_BASE_SEARCHCO: `http://127.0.0.1:${(generous.address() as { port: number }).port}` },
    });
    try {
      const r = await rw.call('/proxy/searchco/rows/google?query=coffee&size=2');
      expect(r.headers.get('x-svc-cost-micro')).toBe('3500');
      expect((await rw.call('/teams/me')).body.balance_micro).toBe(6_500);
      // past what the balance covers: charged what was held (2 rows), never below zero
      await rw.ctx.state.charge(rw.teamId, 5_500, {});
      const over = await rw.call('/proxy/searchco/rows/google?query=coffee&size=2');
      expect(over.headers.get('x-svc-cost-micro')).toBe('1000');
      expect((await rw.call('/teams/me')).body.balance_micro).toBe(0);
    } finally {
      await rw.close();
      generous.close();
    }
  });
});

describe('oversized bodies', () => {
  it('are refused with 413 and the server keeps serving', async () => {
    const big = JSON.stringify({ email: `${'a'.repeat(70_000)}@acme.com` });
    for (let i = 0; i < 3; i++) {
      const r = await fetch(`${w.url}/proxy/people.email.verify`, {
        method: 'POST',
        headers: { 'x-svc-token': w.token, 'content-type': 'application/json' },
        body: big,
      });
      expect(r.status).toBe(413);
      expect((await r.json()).detail).toMatch(/65536 bytes/);
    }
    const session = await fetch(`${w.url}/auth/session`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: big });
    expect(session.status).toBe(413);
    expect((await call('google.serp.organic', { q: 'still alive' })).status).toBe(200);
  });
});

describe('bodies past 16 KiB but within the limit', () => {
  it('are read to the end on every JSON endpoint, not left waiting', async () => {
    const post = (path: string, body: object) =>
      fetch(`${w.url}${path}`, {
        method: 'POST',
        headers: { 'x-svc-token': w.token, 'content-type': 'application/json' },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(5_000),
      });
    for (const size of [16_384, 16_385, 40_000, 65_000]) {
      expect((await post('/auth/session', { token: `svc_${'x'.repeat(size)}` })).status).toBe(422);
      expect((await post('/teams/me/keys/zerobounce', { key: 'k'.repeat(size) })).status).toBe(422); // longer than any key
      expect((await post('/proxy/people.email.verify', { email: `${'a'.repeat(size)}@acme.com` })).status).toBe(422);
    }
  });
});

describe('oversized provider answers', () => {
  it('are errors, not read on and not charged, and the waterfall goes on', async () => {
    // A limit below every sandbox answer: each child's answer is too large.
    const rw = await routedWorld(FIXTURE_DIST, { env: { SVC_MAX_ANSWER_BYTES: '40' } });
    try {
      const before = await rw.ctx.state.balance(rw.teamId);
      const routed = await rw.call('/proxy/google.serp.organic', { q: 'coffee' });
      expect(routed.status).toBe(502);
      expect(routed.body._svc.tried.length).toBeGreaterThan(1);
      for (const t of routed.body._svc.tried) expect(t).toMatchObject({ outcome: 'error', reason: 'too_large', cost_micro: 0 });
      const passed = await rw.call('/proxy/searchco/rows/google?query=coffee&size=3');
      expect(passed.status).toBe(502);
      expect(passed.body.detail).toBe('SearchCo answered with more than 40 bytes; nothing was charged.');
      expect(await rw.ctx.state.balance(rw.teamId)).toBe(before);
    } finally {
      await rw.close();
    }
  });
});
