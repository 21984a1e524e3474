// Live hub tools in /catalog/search, /catalog/find and GET /hub/tools, over the real catalog: a tool
// that chains capabilities answers needs that span them, by the rules operations are ranked by.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REAL_DIST } from '../helpers/paths.ts';
import { routedWorld, type RoutedWorld } from '../helpers/routed.ts';
import { linkedinEmailTool } from './tool-files-real.ts';

let w: RoutedWorld;
let other: string;
const get = async (path: string, token: string | null = w.token) => {
  const r = await fetch(w.url + path, { headers: token ? { 'x-svc-token': token } : {} });
  return { status: r.status, body: (await r.json()) as any };
};
const search = async (q: string, limit = 5) =>
  (await get(`/catalog/search?q=${encodeURIComponent(q)}&limit=${limit}`, null)).body.results as Array<Record<string, any>>;

beforeAll(async () => {
  w = await routedWorld(REAL_DIST, { creditMicro: 100_000_000 });
  other = (await w.ctx.state.createTeam('buyer team', 100_000_000))!.token;
  const published = await w.call('/hub/tools', { tool_id: 'linkedin-verified-email', files: linkedinEmailTool() });
  expect(published.body.status, JSON.stringify(published.body)).toBe('live');
});
afterAll(() => w.close());

/** needs that span the chain, phrased as people ask */
const CHAINED = [
  'find a verified work email from a LinkedIn URL',
  'linkedin profile to verified email',
  'verified work email for a linkedin member',
  'deliverable email address from linkedin url',
  'I have a linkedin url, I need a checked work email',
];
/** needs the tool does not meet */
const UNRELATED = ['google search results for a keyword', 'comments on a youtube video', 'similar companies to a domain'];

describe('live tools in /catalog/search', () => {
  it('a tool that chains the capabilities is the first answer for needs that span them', async () => {
    for (const q of CHAINED) {
      const results = await search(q);
      expect(results[0]?.endpoint_id, `${q} -> ${results.map((r) => r.endpoint_id).join(', ')}`).toBe('hub:linkedin-verified-email');
    }
  });

  it('a tool row says its price per run, maker, capabilities, last check and whether it can be served', async () => {
    const [row] = await search(CHAINED[0], 1);
    expect(row).toMatchObject({
      kind: 'tool',
      tool_id: 'linkedin-verified-email',
      usd: 0.04,
      price_micro: 40_000,
      maker: 'routed-test-team',
      version: 1,
      capabilities: ['people.enrich', 'people.email.find', 'people.email.verify'],
      check: { ok: true },
      serving: { ok: true, problems: [] },
    });
    expect(Date.parse(row.check.at)).not.toBeNaN();
  });

  it('stays out of needs it does not meet, and leaves operations first where a capability alone answers', async () => {
    for (const q of UNRELATED)
      expect(
        (await search(q)).map((r) => r.kind),
        q,
      ).not.toContain('tool');
    // needs one of its capabilities meets alone: that capability's operations first, the tool after them
    for (const q of ['verify an email address', 'email verify', 'linkedin profile lookup']) {
      const results = await search(q, 25);
      expect(results[0].kind, q).not.toBe('tool');
      const tool = results.find((r) => r.kind === 'tool');
      if (tool) expect(tool.score, q).toBeLessThan(results[0].score);
    }
  });

  it('/catalog/find offers the tool among the candidates and keeps it', async () => {
    const r = await fetch(`${w.url}/catalog/find?q=${encodeURIComponent(CHAINED[0])}`);
    const lines = (await r.text())
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines[0].candidates.map((c: { endpoint_id: string }) => c.endpoint_id)).toContain('hub:linkedin-verified-email');
    expect(lines[1].kept.map((k: { endpoint_id: string }) => k.endpoint_id)).toContain('hub:linkedin-verified-email');
  });

  it("/catalog/find keeps no tool whose first step is not the job's: verifying emails is no job for one that starts from a LinkedIn URL", async () => {
    for (const q of ['verify these emails', 'check that a list of email addresses is deliverable']) {
      const lines = (await (await fetch(`${w.url}/catalog/find?q=${encodeURIComponent(q)}`)).text())
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l));
      expect(lines[1].kept.length, q).toBeGreaterThan(0);
      expect(
        lines[1].kept.map((k: { endpoint_id: string }) => k.endpoint_id),
        q,
      ).not.toContain('hub:linkedin-verified-email');
    }
  });
});

describe('GET /hub/tools, the store', () => {
  const failing = () => {
    const files = linkedinEmailTool();
    const check = { input: { linkedin_url: 'https://www.linkedin.com/in/jane-doe' }, expect: { status: 'no such status' } };
    return { ...files, 'check.json': JSON.stringify(check) };
  };

  it('lists live tools to every team with price, maker and check; the maker also sees its own that are not live', async () => {
    expect((await w.call('/hub/tools', { tool_id: 'not-live-yet', files: failing() })).body.status).toBe('failed');
    const mine = (await get('/hub/tools')).body;
    expect(mine.tools.map((t: { tool_id: string; status: string }) => [t.tool_id, t.status])).toEqual([
      ['linkedin-verified-email', 'live'],
      ['not-live-yet', 'failed'],
    ]);
    const theirs = (await get('/hub/tools', other)).body;
    expect(theirs.tools).toEqual([
      expect.objectContaining({
        tool_id: 'linkedin-verified-email',
        mine: false,
        maker: 'routed-test-team',
        price_usd: 0.04,
        check: expect.objectContaining({ ok: true }),
      }),
    ]);
    expect(theirs.tools[0].input_schema.required).toEqual(['linkedin_url']);
  });

  it('narrows by words, a capability the steps use, the maker and a price ceiling', async () => {
    const ids = async (query: string) => (await get(`/hub/tools?${query}`, other)).body.tools.map((t: { tool_id: string }) => t.tool_id);
    expect(await ids('q=verified+email+from+linkedin')).toEqual(['linkedin-verified-email']);
    expect(await ids('q=youtube+comments')).toEqual([]);
    expect(await ids('capability=people.email.verify')).toEqual(['linkedin-verified-email']);
    expect(await ids('capability=google.serp.organic')).toEqual([]);
    expect(await ids('maker=routed-test-team')).toEqual(['linkedin-verified-email']);
    expect(await ids('maker=somebody-else')).toEqual([]);
    expect(await ids('max_price_usd=0.04')).toEqual(['linkedin-verified-email']);
    expect(await ids('max_price_usd=0.039999')).toEqual([]);
    expect((await get('/hub/tools?max_price_usd=cheap', other)).status).toBe(422);
  });

  it('pages with limit and next_cursor', async () => {
    const first = (await get('/hub/tools?limit=1')).body;
    expect([first.tools.length, first.total, first.next_cursor]).toEqual([1, 2, '1']);
    const second = (await get(`/hub/tools?limit=1&cursor=${first.next_cursor}`)).body;
    expect([second.tools[0].tool_id, second.next_cursor]).toEqual(['not-live-yet', null]);
  });
});

describe('reviews of a tool', () => {
  it('one per team, tool and month, by teams that use it; the summary shows on its page, its search row and in the store', async () => {
    const review = (usefulness: string, reason: string, token: string, endpoint_id = 'hub:linkedin-verified-email') =>
      fetch(`${w.url}/reviews`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-svc-token': token },
        body: JSON.stringify({ endpoint_id, usefulness, reason }),
      }).then(async (r) => ({ status: r.status, body: (await r.json()) as any }));
    expect((await review('useful', 'my own tool', w.token)).status).toBe(403);
    expect((await review('useful', 'never heard of it', other, 'hub:no-such-tool')).status).toBe(422);
    expect((await review('useful', 'works', other)).body.replaced).toBe(false);
    // a second review this month replaces the first
    expect((await review('partly', 'found the email, verification slow', other)).body.replaced).toBe(true);
    const summary = { teams: 1, share: { useful: 0, partly: 1, not_useful: 0 } };
    expect((await get('/hub/tools/linkedin-verified-email', other)).body.reviews).toMatchObject(summary);
    expect((await search(CHAINED[0], 1))[0].reviews).toMatchObject(summary);
    expect((await get('/hub/tools?q=linkedin', other)).body.tools[0].reviews).toMatchObject({
      ...summary,
      samples: [expect.objectContaining({ reason: 'found the email, verification slow' })],
    });
  });
});

describe('trust that stays true', () => {
  it('a tool whose step has every provider failing says so on its page, in search and in the store; a re-check shows its cost first, records its result and keeps it live', async () => {
    const health = w.ctx.router.deps.health;
    const children = w.ctx.catalog.runtime.capabilities['people.email.verify'].children;
    for (const id of children) for (let i = 0; i < 5; i++) health.record(id, 'error');
    const problem = 'Every provider of svc.people.email.verify keeps failing (all their circuits are open).';
    expect((await get('/hub/tools/linkedin-verified-email', other)).body.serving).toEqual({ ok: false, problems: [problem] });
    expect((await search(CHAINED[0], 1))[0].serving).toEqual({ ok: false, problems: [problem] });
    expect((await get('/hub/tools?q=linkedin', other)).body.tools[0].serving.ok).toBe(false);
    // the maker re-checks it: the cost first (nothing called), then the check, recorded; it stays live
    const plan = await w.call('/hub/tools/linkedin-verified-email/check', {}, { 'x-svc-route-dry-run': '1' });
    expect(plan.body).toMatchObject({ dry_run: true, version: 1, status: 'live', price_micro: 0 });
    expect(plan.body.steps.map((st: { id: string }) => st.id)).toEqual(['person', 'find', 'verify']);
    const again = await w.call('/hub/tools/linkedin-verified-email/check', {});
    expect(again.body).toMatchObject({ status: 'live', check: { ok: false } });
    expect(again.body.reason).toMatch(/verify/);
    expect((await get('/hub/tools/linkedin-verified-email', other)).body).toMatchObject({ status: 'live', last_check: { ok: false } });
    expect((await search(CHAINED[0], 1))[0].check.ok).toBe(false);
  });
});
