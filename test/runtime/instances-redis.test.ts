// Two runtime instances on two loopback ports sharing one Redis database and one provider sandbox,
// with the load spread over both: money, ids, hub versions, the find limit and merged calls must come
// out exactly as one instance would have them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox, loadSandboxCatalog, sandboxKeys, startSandbox, type RunningSandbox } from '../../sandbox/index.ts';
import { sandboxEnv } from '../../sandbox/svc-env.ts';
import type { AppContext } from '../../runtime/context/context.ts';
import type { LedgerEntry } from '../../runtime/state/index.ts';
import { FIXTURE_DIST } from '../helpers/paths.ts';
import { appContext, serve } from '../helpers/server.ts';
import { suiteRedis } from '../helpers/redis.ts';
import { emailTool } from '../hub/tool-files.ts';
import { SHARED_TEAM_TTL_MS } from '../../runtime/state/teams.ts';

const redis = suiteRedis();

const ADMIN = 'admin-two-instances';
let sandbox: RunningSandbox;
let ctx: AppContext[];
let urls: string[];
let closers: Array<() => Promise<void>>;

/** one request to instance `i % 2` */
async function req(i: number, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  const r = await fetch(urls[i % 2] + path, {
    method,
    headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await r.text();
  return { status: r.status, headers: r.headers, body: text.startsWith('{') ? JSON.parse(text) : text };
}

async function team(name: string, creditMicro: number) {
  const made = (await ctx[0].state.createTeam(name, creditMicro))!;
  return { id: made.team.id, slug: made.team.slug, token: made.token };
}

async function wholeLedger(teamId: number): Promise<LedgerEntry[]> {
  const out: LedgerEntry[] = [];
  for (let cursor: string | null = null, first = true; first || cursor; first = false) {
    const page: { entries: LedgerEntry[]; next_cursor: string | null } = await ctx[1].state.ledger(teamId, cursor);
    out.push(...page.entries);
    cursor = page.next_cursor;
  }
  return out;
}

beforeAll(async () => {
  const runtime = loadSandboxCatalog(FIXTURE_DIST);
  const { keys } = sandboxKeys(runtime, {});
  sandbox = await startSandbox(createSandbox(runtime, { keys, stallMs: 5_000 }), 0);
  const env = {
    ...sandboxEnv(runtime, sandbox.url, keys),
    SVC_STORAGE: redis.url(),
    SVC_ADMIN_TOKEN: ADMIN,
    SVC_FIND_RATE_PER_MINUTE: '10',
    SVC_POLL_INTERVAL_MAX_MS: '20',
  };
  ctx = [await appContext(FIXTURE_DIST, env), await appContext(FIXTURE_DIST, env)];
  const servers = await Promise.all(ctx.map((c) => serve(c)));
  urls = servers.map((s) => s.url);
  closers = [...servers.map((s) => s.close), () => sandbox.close(), ...ctx.map((c) => () => c.state.close())];
});
afterAll(async () => {
  for (const close of closers) await close();
});

describe('two instances sharing Redis', () => {
  it('1,000 concurrent charges and credits over both leave the exact balance and a ledger that sums to it', async () => {
    const t = await team('Spread load', 1_000_000);
    const answers = await Promise.all(
      Array.from({ length: 1000 }, (_, i) =>
        i % 4 < 2
          ? req(i, 'POST', '/proxy/google.serp.organic', { q: `coffee ${i}` }, { 'x-svc-token': t.token })
          : req(i, 'POST', `/admin/teams/${t.slug}/credit`, { usd: '0.002' }, { 'x-svc-admin': ADMIN }),
      ),
    );
    const calls = answers.filter((_, i) => i % 4 < 2);
    const credits = answers.filter((_, i) => i % 4 >= 2);
    expect(calls.map((a) => a.status)).toEqual(Array(500).fill(200));
    expect(credits.map((a) => a.status)).toEqual(Array(500).fill(200));
    const charged = calls.reduce((s, a) => s + Number(a.headers.get('x-svc-cost-micro')), 0);
    expect(charged).toBe(500 * 1000);
    const expected = 1_000_000 + 500 * 2000 - charged;
    expect(await ctx[0].state.balance(t.id)).toBe(expected);
    expect(await ctx[1].state.balance(t.id)).toBe(expected);
    const ledger = await wholeLedger(t.id);
    expect(ledger).toHaveLength(1 + 500 + 500);
    expect(ledger.reduce((s, e) => s + e.amount_micro, 0)).toBe(expected);
    expect(ledger.map((e) => e.id)).toEqual(Array.from({ length: 1001 }, (_, i) => 1001 - i));
  }, 120_000);

  it('feedback ids are unique under concurrency and increase request after request, whichever instance answers', async () => {
    const t = await team('Feedback both', 0);
    const auth = { 'x-svc-token': t.token };
    const together = await Promise.all(Array.from({ length: 100 }, (_, i) => req(i, 'POST', '/feedback', { kind: 'idea', message: `idea ${i}` }, auth)));
    expect(together.every((a) => a.status === 201)).toBe(true);
    expect(new Set(together.map((a) => a.body.id)).size).toBe(100);
    const ids: number[] = [];
    for (let i = 0; i < 10; i++) ids.push((await req(i, 'POST', '/feedback', { kind: 'idea', message: `later ${i}` }, auth)).body.id);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(ids[0]).toBeGreaterThan(Math.max(...together.map((a) => a.body.id)));
    // a record written through one instance reads back through the other
    expect((await req(1, 'GET', `/feedback/${ids[0]}`, undefined, auth)).body.message).toBe('later 0');
    // and every one of them is in the team's listing, whichever instance indexed it
    const listed: number[] = [];
    for (let cursor = ''; ; ) {
      const page = (await req(0, 'GET', `/teams/me/feedback?cursor=${cursor}`, undefined, auth)).body;
      listed.push(...page.feedback.map((f: { id: number }) => f.id));
      if (!page.next_cursor) break;
      cursor = page.next_cursor;
    }
    expect(listed).toEqual([...together.map((a) => a.body.id), ...ids].sort((a, b) => b - a));
  });

  it('200 concurrent publishes of one tool over both instances get 200 distinct versions', async () => {
    const t = await team('Hub maker', 0);
    const auth = { 'x-svc-token': t.token };
    expect((await req(0, 'POST', '/hub/tools', { tool_id: 'email-both', files: emailTool() }, auth)).status).toBe(201);
    const answers = await Promise.all(Array.from({ length: 200 }, (_, i) => req(i, 'PUT', '/hub/tools/email-both', { files: emailTool() }, auth)));
    expect(answers.map((a) => a.status)).toEqual(Array(200).fill(200));
    expect(answers.map((a) => a.body.version).sort((a, b) => a - b)).toEqual(Array.from({ length: 200 }, (_, i) => i + 2));
  }, 120_000);

  it("a tool published through one instance is found in the other's search, and leaves it once retired there", async () => {
    const t = await team('Store maker', 10_000_000);
    const auth = { 'x-svc-token': t.token };
    const found = async (i: number) =>
      ((await req(i, 'GET', '/catalog/search?q=verified+work+email&limit=50')).body.results as Array<{ endpoint_id: string }>).map((r) => r.endpoint_id);
    expect(await found(1)).not.toContain('hub:store-both'); // instance 1 has its live tools loaded before the publish
    expect((await req(0, 'POST', '/hub/tools', { tool_id: 'store-both', files: emailTool() }, auth)).body.status).toBe('live');
    expect(await found(1)).toContain('hub:store-both');
    expect((await req(1, 'DELETE', '/hub/tools/store-both', undefined, auth)).status).toBe(200);
    expect(await found(0)).not.toContain('hub:store-both');
  });

  it('the /catalog/find limit holds across both: 10 a minute per address in all', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 16; i++) {
      const r = await fetch(`${urls[i % 2]}/catalog/find?q=email`);
      statuses.push(r.status);
      if (r.status === 429) expect(Number(r.headers.get('retry-after'))).toBeGreaterThan(0);
      await r.body?.cancel();
    }
    expect(statuses).toEqual([...Array(10).fill(200), ...Array(6).fill(429)]);
  });

  it('identical concurrent calls on both instances: each upstream run is charged once, joiners nothing, and the headers sum to the ledger', async () => {
    const t = await team('Twins', 1_000_000);
    // provider calls the sandbox has seen, over every key
    const upstream = async () =>
      Object.values((await (await fetch(`${sandbox.url}/_sandbox/billing`)).json()) as Record<string, { calls: number }>).reduce((n, b) => n + b.calls, 0);
    const before = await upstream();
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, i) => req(i, 'POST', '/proxy/google.serp.organic', { q: 'same question' }, { 'x-svc-token': t.token })),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(12).fill(200));
    const costs = answers.map((a) => Number(a.headers.get('x-svc-cost-micro')));
    const runs = answers.filter((a) => !a.body._svc.shared);
    expect(runs.length).toBeGreaterThanOrEqual(1);
    expect(runs.length).toBeLessThanOrEqual(12);
    expect(await upstream()).toBe(before + runs.length); // every run reached the provider once, every joiner did not
    const charges = (await wholeLedger(t.id)).filter((e) => e.kind === 'charge');
    expect(charges).toHaveLength(runs.length);
    expect(costs.reduce((s, c) => s + c, 0)).toBe(-charges.reduce((s, e) => s + e.amount_micro, 0));
    expect(await ctx[0].state.balance(t.id)).toBe(1_000_000 - costs.reduce((s, c) => s + c, 0));
    expect(new Set(charges.map((e) => e.call_id)).size).toBe(runs.length);
  });

  it('an own key set through one instance is used by the other once its cached team record ends', async () => {
    const t = await team('Keys both', 0);
    expect(await ctx[1].state.ownKeyProviders(t.id)).toEqual([]); // now cached on instance 1
    await ctx[0].state.setOwnKey(t.id, 'searchco', 'sk-both');
    await new Promise((r) => setTimeout(r, SHARED_TEAM_TTL_MS + 50));
    expect(await ctx[1].state.ownKey(t.id, 'searchco')).toBe('sk-both');
  });

  it("a review stored through one instance reaches the other's summaries", async () => {
    const t = await team('Reviewer', 0);
    await ctx[0].reviews.submit(t.id, { endpoint_id: 'searchco.google.serp.organic', usefulness: 'useful', reason: 'Fresh results.' });
    await ctx[1].reviews.catchUp(); // what its timer does every 2 s
    expect(ctx[1].reviews.summary('searchco.google.serp.organic')).toEqual(ctx[0].reviews.summary('searchco.google.serp.organic'));
    expect(ctx[1].reviews.summary('searchco.google.serp.organic')).toBeDefined();
  });

  it("feedback and a review the last release's instance stores during a rolling upgrade are listed by their team", async () => {
    const t = await team('Rolling upgrade', 0);
    const auth = { 'x-svc-token': t.token };
    // the last release's writes, as it made them: the records, and no team index
    const { atomics } = ctx[0].state;
    const id = await atomics.nextId('feedback');
    await atomics.claim(`feedback:${id}`, {
      id,
      team_id: t.id,
      kind: 'bug',
      message: 'sent to the old instance',
      status: 'received',
      created_at: new Date().toISOString(),
    });
    const endpointId = 'searchco.google.serp.organic';
    const month = new Date().toISOString().slice(0, 7);
    await atomics.update<Record<string, string[]>>('review-index', (index) =>
      index?.[endpointId]?.includes(month) ? undefined : { ...index, [endpointId]: [...(index?.[endpointId] ?? []), month] },
    );
    const review = {
      id: await atomics.nextId('review'),
      team_id: t.id,
      usefulness: 'partly',
      reason: 'Old instance.',
      client: '',
      month,
      at: new Date().toISOString(),
    };
    await atomics.update<{ rev: number; reviews: unknown[] }>(`review:${endpointId}:${month}`, (slot) => ({
      rev: (slot?.rev ?? 0) + 1,
      reviews: [...(slot?.reviews ?? []), review],
    }));
    await atomics.incr('review-writes');
    await Promise.all(ctx.flatMap((c) => [c.feedback.catchUp(), c.reviews.catchUp()])); // what their timers do every 2 s

    for (const i of [0, 1]) {
      expect((await req(i, 'GET', '/teams/me/feedback', undefined, auth)).body.feedback).toEqual([
        expect.objectContaining({ id, message: 'sent to the old instance' }),
      ]);
      expect((await req(i, 'GET', '/teams/me/reviews', undefined, auth)).body.reviews).toEqual([
        expect.objectContaining({ id: review.id, endpoint_id: endpointId, reason: 'Old instance.' }),
      ]);
    }
  });

  it('/readyz answers ready on both', async () => {
    expect([(await req(0, 'GET', '/readyz')).status, (await req(1, 'GET', '/readyz')).status]).toEqual([200, 200]);
  });
});
