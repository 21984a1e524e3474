// The state layer's contract, run over every backend: memory, the durable embedded files, and Redis.
import { appendFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createState, formatUsd, parseUsdToMicro, type State } from '../../runtime/state/index.ts';
import { openFeedback } from '../../runtime/feedback/open.ts';
import { SUMMARY_TTL_MS, WINDOW } from '../../runtime/state/observations.ts';
import { Redis } from 'ioredis';
import { indexRefs, pageOfRefs, TEAM_INDEX_MAX, TEAM_PAGE } from '../../runtime/feedback/team-index.ts';
import { suiteRedis } from '../helpers/redis.ts';
import { LEDGER_DIR } from '../../runtime/state/backend.ts';

const redis = suiteRedis();

const dirs: string[] = [];
/** every state a test opened, closed (again, if the test closed it) once the file is done: an embedded one holds its ledger files open */
const opened: State[] = [];
const openState = async (config: Parameters<typeof createState>[0]): Promise<State> => {
  const state = await createState(config);
  opened.push(state);
  return state;
};
afterAll(async () => {
  for (const s of opened) await s.close();
  dirs.forEach((d) => rmSync(d, { recursive: true, force: true }));
});

function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'svc-state-'));
  dirs.push(d);
  return d;
}

function allFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .map((f) => join(dir, f))
    .filter((f) => statSync(f).isFile());
}

const backends = [
  {
    name: 'memory',
    open: async () => ({
      state: await openState({ storage: { kind: 'memory' as const }, dataDir: tempDir(), secret: 'test-secret' }),
      dir: null as string | null,
    }),
  },
  {
    name: 'embedded fs',
    open: async () => {
      const dir = tempDir();
      return { state: await openState({ storage: { kind: 'fs' as const, dir: null }, dataDir: dir, secret: 'test-secret' }), dir };
    },
  },
  {
    name: 'redis',
    open: async () => {
      await redis.flush();
      const state = await openState({ storage: { kind: 'redis' as const, url: redis.url() }, dataDir: tempDir(), secret: 'test-secret' });
      return { state, dir: null as string | null };
    },
  },
];

describe('money', () => {
  it('parses USD text and numbers to exact micro-USD', () => {
    expect(parseUsdToMicro('12.34')).toBe(12_340_000);
    expect(parseUsdToMicro('0.1')).toBe(100_000);
    expect(parseUsdToMicro(0.1)).toBe(100_000);
    expect(parseUsdToMicro(0.000001)).toBe(1);
    expect(parseUsdToMicro('1.0000001')).toBeNull();
    expect(parseUsdToMicro('-1')).toBeNull();
    expect(parseUsdToMicro('1e3')).toBeNull();
    expect(parseUsdToMicro('1000000001')).toBe(1_000_000_001_000_000);
    // the most svc keeps exactly, and one micro-dollar past it
    expect(parseUsdToMicro('9007199254.740991')).toBe(Number.MAX_SAFE_INTEGER);
    for (const unsafe of ['9007199254.740992', '99999999999', '00009007199254.740992', 1e16, '1e400']) expect(parseUsdToMicro(unsafe)).toBeNull();
    expect(parseUsdToMicro('0000012.5')).toBe(12_500_000);
    expect(formatUsd(12_340_000)).toBe('12.34');
    // a float sum drifts; integer micro does not
    expect(Array.from({ length: 10 }, () => parseUsdToMicro('0.1')!).reduce((a, b) => a + b, 0)).toBe(1_000_000);
  });
});

describe.each(backends)('state over $name', ({ open }) => {
  it('hands out unique, increasing ids under 200 concurrent calls', async () => {
    const { state } = await open();
    const ids = await Promise.all(Array.from({ length: 200 }, () => state.atomics.nextId('feedback')));
    expect(new Set(ids).size).toBe(200);
    expect([...ids].sort((a, b) => a - b)).toEqual(Array.from({ length: 200 }, (_, i) => i + 1));
    expect(ids).toEqual([...ids].sort((a, b) => a - b)); // in call order
    expect(await state.atomics.nextId('feedback')).toBe(201);
    expect(await state.atomics.nextId('other')).toBe(1);
  });

  it('keeps counters exact', async () => {
    const { state } = await open();
    await Promise.all(Array.from({ length: 100 }, (_, i) => state.atomics.incr('c', i)));
    expect(await state.atomics.counter('c')).toBe(4950);
  });

  it('never overdraws under concurrent debits, and the ledger sums exactly', async () => {
    const { state } = await open();
    const { team } = (await state.createTeam('Debit Co', 1_000_000))!;
    const results = await Promise.all(Array.from({ length: 150 }, (_, i) => state.charge(team.id, 7_000 + (i % 3), { endpoint_id: 'e.x', call_id: `c${i}` })));
    const ok = results.filter(Boolean).length;
    const balance = await state.balance(team.id);
    expect(balance).toBeGreaterThanOrEqual(0);
    expect(balance).toBeLessThan(7_002);
    const entries = [];
    for (let cursor: string | null = null, first = true; first || cursor; first = false) {
      const page: Awaited<ReturnType<State['ledger']>> = await state.ledger(team.id, cursor);
      entries.push(...page.entries);
      cursor = page.next_cursor;
    }
    expect(entries.filter((e) => e.kind === 'charge')).toHaveLength(ok);
    expect(entries.reduce((s, e) => s + e.amount_micro, 0)).toBe(balance);
    expect(entries.every((e) => Number.isInteger(e.amount_micro))).toBe(true);
  });

  it('serialises concurrent record updates and claims a key once', async () => {
    const { state } = await open();
    await Promise.all(Array.from({ length: 50 }, () => state.atomics.update<{ n: number }>('rec', (r) => ({ n: (r?.n ?? 0) + 1 }))));
    expect(await state.atomics.get('rec')).toEqual({ n: 50 });
    const claims = await Promise.all(Array.from({ length: 20 }, (_, i) => state.atomics.claim('once', { i })));
    expect(claims.filter(Boolean)).toHaveLength(1);
  });

  it('counts hits per fixed window, each name apart', async () => {
    const { state } = await open();
    const counts = await Promise.all(Array.from({ length: 40 }, () => state.atomics.hit('find:1.2.3.4', 60_000)));
    expect(counts.map((c) => c.count).sort((a, b) => a - b)).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
    expect(counts.every((c) => c.resetMs > 0 && c.resetMs <= 60_000)).toBe(true);
    expect((await state.atomics.hit('find:5.6.7.8', 60_000)).count).toBe(1);
  });

  it('holds balance for calls in flight: concurrent holds never pass it, and a release frees it', async () => {
    const { state } = await open();
    const { team } = (await state.createTeam('Holds', 1_000))!;
    const acct = `team-${team.id}`;
    const held = (await Promise.all(Array.from({ length: 30 }, (_, i) => state.atomics.hold(acct, `h${i}`, 100, 60_000)))).map((h) => h.held);
    expect(held.filter(Boolean)).toHaveLength(10);
    expect((await state.atomics.hold(acct, 'late', 100, 60_000)).held).toBe(false);
    await state.atomics.unhold(acct, `h${held.indexOf(true)}`);
    expect((await state.atomics.hold(acct, 'late', 100, 60_000)).held).toBe(true);
  });

  it('lets a hold expire (its holder died), and counts the live ones exactly around it', async () => {
    const { state } = await open();
    const { team } = (await state.createTeam('Expiring', 1_000))!;
    const acct = `team-${team.id}`;
    expect((await state.atomics.hold(acct, 'lives', 300, 60_000)).held).toBe(true);
    expect((await state.atomics.hold(acct, 'dies', 600, 40)).held).toBe(true);
    expect((await state.atomics.hold(acct, 'x', 101, 60_000)).held).toBe(false);
    await new Promise((r) => setTimeout(r, 80));
    // 600 came back by itself; releasing the dead hold late, or twice, gives nothing more
    await state.atomics.unhold(acct, 'dies');
    await state.atomics.unhold(acct, 'dies');
    expect((await state.atomics.hold(acct, 'y', 701, 60_000)).held).toBe(false);
    expect((await state.atomics.hold(acct, 'y', 700, 60_000)).held).toBe(true);
  });

  it('answers the balance (holds aside) with each hold, held or refused', async () => {
    const { state } = await open();
    const { team } = (await state.createTeam('Reads', 1_000))!;
    const acct = `team-${team.id}`;
    expect(await state.atomics.hold(acct, 'a', 700, 60_000)).toEqual({ held: true, balance_micro: 1_000 });
    expect(await state.atomics.hold(acct, 'b', 700, 60_000)).toEqual({ held: false, balance_micro: 1_000 });
    expect(await state.charge(team.id, 400, { endpoint_id: 'e' })).toBe(true);
    expect(await state.atomics.hold(acct, 'c', 1, 60_000)).toEqual({ held: false, balance_micro: 600 });
  });

  it('drops a hold with the charge made under it, in one step; a refused charge leaves the hold standing', async () => {
    const { state } = await open();
    const { team } = (await state.createTeam('Settles', 1_000))!;
    const acct = `team-${team.id}`;
    expect((await state.atomics.hold(acct, 'h', 600, 60_000)).held).toBe(true);
    expect(await state.charge(team.id, 2_000, { endpoint_id: 'e' }, 'h')).toBe(false);
    expect((await state.atomics.hold(acct, 'x', 500, 60_000)).held).toBe(false); // still held
    expect(await state.charge(team.id, 600, { endpoint_id: 'e', call_id: 'c' }, 'h')).toBe(true);
    // 400 left and nothing held: all of it may be held again, no more
    expect((await state.atomics.hold(acct, 'y', 401, 60_000)).held).toBe(false);
    expect((await state.atomics.hold(acct, 'y', 400, 60_000)).held).toBe(true);
    const [charge] = (await state.ledger(team.id, null)).entries;
    expect(charge).toMatchObject({ kind: 'charge', amount_micro: -600, call_id: 'c' });
  });

  it('refunds a charge as a credit naming its call, never past the charge, however often it is sent', async () => {
    const { state } = await open();
    const { team } = (await state.createTeam('Refunds', 1_000))!;
    const acct = `team-${team.id}`;
    expect(await state.charge(team.id, 300, { endpoint_id: 'e.x', call_id: 'call-1' })).toBe(true);
    expect(await state.charge(team.id, 200, { tool_id: 'maker/tool@1', call_id: 'call-2' })).toBe(true);
    const [second, first, credit] = (await state.ledger(team.id, null)).entries;
    // part, then the rest asked for twice over: the charge's 300 and no more
    expect(await state.atomics.refund(acct, first.id, 100)).toMatchObject({ kind: 'credit', amount_micro: 100, endpoint_id: 'e.x', call_id: 'call-1' });
    expect(await state.atomics.refund(acct, first.id, 1_000)).toMatchObject({ kind: 'credit', amount_micro: 200, call_id: 'call-1' });
    expect(await state.atomics.refund(acct, first.id, 1)).toBeNull();
    // sent several times at once, one refund lands
    const same = await Promise.all(Array.from({ length: 5 }, () => state.atomics.refund(acct, second.id, 200)));
    expect(same.filter((e) => e !== null)).toEqual([
      expect.objectContaining({ kind: 'credit', amount_micro: 200, tool_id: 'maker/tool@1', call_id: 'call-2' }),
    ]);
    // what is not a charge, or not there, gives nothing
    expect(await state.atomics.refund(acct, credit.id, 5)).toBeNull();
    expect(await state.atomics.refund(acct, 99, 5)).toBeNull();
    expect(await state.balance(team.id)).toBe(1_000);
    const { entries } = await state.ledger(team.id, null);
    expect(entries.map((e) => [e.kind, e.amount_micro, e.call_id])).toEqual([
      ['credit', 200, 'call-2'],
      ['credit', 200, 'call-1'],
      ['credit', 100, 'call-1'],
      ['charge', -200, 'call-2'],
      ['charge', -300, 'call-1'],
      ['credit', 1_000, undefined],
    ]);
  });

  it("keeps a charge's reported figures beside its amount; entries without them carry none", async () => {
    const { state } = await open();
    const { team } = (await state.createTeam('Reports', 100_000))!;
    const figures = { list_micro: 10_000, reported_micro: 30_000, reported_value: 3, reported_unit: 'credits' };
    expect(await state.charge(team.id, 30_000, { endpoint_id: 'e.x', call_id: 'call-r', ...figures })).toBe(true);
    expect(
      await state.charge(team.id, 15_500, {
        endpoint_id: 'e.usd',
        call_id: 'call-u',
        list_micro: 20_000,
        reported_micro: 15_500,
        reported_value: 0.0155,
        reported_unit: 'usd',
      }),
    ).toBe(true);
    expect(await state.charge(team.id, 1_000, { endpoint_id: 'e.y', call_id: 'call-p' })).toBe(true);
    const [plain, usd, reported, credit] = (await state.ledger(team.id, null)).entries;
    expect(reported).toEqual({
      id: reported.id,
      at: expect.any(String),
      kind: 'charge',
      amount_micro: -30_000,
      endpoint_id: 'e.x',
      call_id: 'call-r',
      ...figures,
    });
    expect(usd).toMatchObject({ amount_micro: -15_500, list_micro: 20_000, reported_micro: 15_500, reported_value: 0.0155, reported_unit: 'usd' });
    // what the ledger API answers: the entry as JSON (an absent field is undefined in memory)
    const named = (e: object) => Object.keys(JSON.parse(JSON.stringify(e))).sort();
    expect(named(plain)).toEqual(['amount_micro', 'at', 'call_id', 'endpoint_id', 'id', 'kind']);
    expect(named(credit)).toEqual(['amount_micro', 'at', 'id', 'kind']);
    // a refund names the charge's call, not its figures
    const back = await state.atomics.refund(`team-${team.id}`, reported.id, 5_000);
    expect(back).toMatchObject({ kind: 'credit', amount_micro: 5_000, call_id: 'call-r' });
    expect(back!.reported_micro).toBeUndefined();
    expect(await state.balance(team.id)).toBe(100_000 - 30_000 - 15_500 - 1_000 + 5_000);
  });

  it('keeps expiring marks, a later expiry winning', async () => {
    const { state } = await open();
    await state.atomics.mark('circuit:e.x', 60_000);
    await state.atomics.mark('circuit:e.x', 1_000);
    await state.atomics.mark('gone', 1);
    await new Promise((r) => setTimeout(r, 20));
    const marks = await state.atomics.marks();
    expect([...marks.keys()]).toEqual(['circuit:e.x']);
    expect(marks.get('circuit:e.x')).toBeGreaterThan(1_000);
  });

  it('refuses a charge above the balance and writes nothing for it; zero charges are not written', async () => {
    const { state } = await open();
    const { team } = (await state.createTeam('Tight', 5))!;
    expect(await state.charge(team.id, 6, { endpoint_id: 'e' })).toBe(false);
    expect(await state.charge(team.id, 0, { endpoint_id: 'e' })).toBe(true);
    expect(await state.charge(team.id, 5, { endpoint_id: 'e', call_id: 'k' })).toBe(true);
    expect(await state.balance(team.id)).toBe(0);
    const { entries } = await state.ledger(team.id, null);
    expect(entries.map((e) => [e.kind, e.amount_micro])).toEqual([
      ['charge', -5],
      ['credit', 5],
    ]);
  });

  it('refuses a credit or an earning that would take a total past the safe integer, and writes nothing for it', async () => {
    const { state } = await open();
    const { team } = (await state.createTeam('Brim', Number.MAX_SAFE_INTEGER - 10))!;
    expect(await state.credit(team.id, 11)).toBeNull();
    expect(await state.credit(team.id, 10)).toBe(Number.MAX_SAFE_INTEGER);
    expect(await state.earn(team.id, Number.MAX_SAFE_INTEGER, { tool_id: 't' })).toBe(true);
    expect(await state.earn(team.id, 1, { tool_id: 't' })).toBe(false);
    expect(await state.account(team.id)).toEqual({ balance_micro: Number.MAX_SAFE_INTEGER, earnings_micro: Number.MAX_SAFE_INTEGER });
    expect((await state.ledger(team.id, null)).entries).toHaveLength(3);
  });

  it('lists the ledger newest first in pages of 50 with a cursor', async () => {
    const { state } = await open();
    const { team } = (await state.createTeam('Pages', 0))!;
    for (let i = 1; i <= 120; i++) await state.credit(team.id, i);
    await state.earn(team.id, 9, { tool_id: 'tool-a', call_id: 'r1' });
    const p1 = await state.ledger(team.id, null);
    expect(p1.entries).toHaveLength(50);
    expect(p1.entries[0]).toMatchObject({ kind: 'earning', amount_micro: 9, tool_id: 'tool-a' });
    expect(p1.entries[1].amount_micro).toBe(120);
    const p2 = await state.ledger(team.id, p1.next_cursor);
    const p3 = await state.ledger(team.id, p2.next_cursor);
    const all = [...p1.entries, ...p2.entries, ...p3.entries];
    expect(all).toHaveLength(121);
    expect(p3.next_cursor).toBeNull();
    expect(all.map((e) => e.id)).toEqual([...all.map((e) => e.id)].sort((a, b) => b - a));
    expect(await state.account(team.id)).toEqual({ balance_micro: 7260, earnings_micro: 9 });
  });

  it('finds a team by token and session, never by a near miss', async () => {
    const { state } = await open();
    const { team, token } = (await state.createTeam('Acme Data, Inc.', 0))!;
    expect(team.slug).toBe('acme-data-inc');
    expect(token).toMatch(/^svc_[0-9A-Za-z]{32}$/);
    expect((await state.teamForCredential({ token }))?.id).toBe(team.id);
    // once looked up, a token's team is known at once where this process is the only writer; on a
    // shared backend every call reads it, so a revoke on another instance is seen at once
    expect(state.knownTeamForToken(token)).toEqual(state.kind === 'redis' ? undefined : await state.teamForCredential({ token }));
    const flipped = token.slice(0, -1) + (token.endsWith('a') ? 'b' : 'a');
    expect(state.knownTeamForToken(flipped)).toBeUndefined();
    expect(await state.teamForCredential({ token: flipped })).toBeNull();
    expect(state.knownTeamForToken(flipped)).toBeUndefined();
    expect(await state.teamForCredential({ token: 'nonsense' })).toBeNull();
    const session = await state.openSession(team.id);
    expect((await state.teamForCredential({ session }))?.id).toBe(team.id);
    expect(await state.teamForCredential({ session: session.slice(1) + 'x' })).toBeNull();
    expect(await state.createTeam('ACME data inc', 0)).toBeNull(); // slug taken
  });

  it('stores own provider keys sealed, and opens them again', async () => {
    const { state, dir } = await open();
    const { team } = (await state.createTeam('Keys', 0))!;
    await state.setOwnKey(team.id, 'searchco', 'sk-live-PLAINTEXT-123');
    expect(await state.ownKey(team.id, 'searchco')).toBe('sk-live-PLAINTEXT-123');
    expect(await state.ownKeyProviders(team.id)).toEqual(['searchco']);
    // known at once while the team is cached, and the same as the read
    expect([...(state.knownOwnKeyProviders(team.id) ?? ['not known'])]).toEqual(['searchco']);
    if (dir) for (const f of allFiles(dir)) expect(readFileSync(f, 'utf8')).not.toContain('PLAINTEXT');
    expect(await state.removeOwnKey(team.id, 'searchco')).toBe(true);
    expect(await state.ownKey(team.id, 'searchco')).toBeNull();
    // what is known at once never outlives the change: known and gone, or left to the read
    expect([...(state.knownOwnKeyProviders(team.id) ?? new Set(await state.ownKeyProviders(team.id)))]).toEqual([]);
  });

  it("keeps a team's newest references only, and takes no older one back once full", async () => {
    const { state } = await open();
    const refs = (from: number, n: number) => Array.from({ length: n }, (_, i) => ({ id: from + i, key: `feedback:${from + i}` }));
    await indexRefs(state.atomics, 'feedback', 7, refs(1, TEAM_INDEX_MAX + 5));
    await indexRefs(state.atomics, 'feedback', 7, refs(1, 5)); // a migration offering the oldest again
    const listed: number[] = [];
    let before: number | null = null;
    do {
      const page = await pageOfRefs(state.atomics, 'feedback', 7, before);
      listed.push(...page.refs.map((r) => r.id));
      before = page.next;
    } while (before !== null);
    expect(listed).toHaveLength(TEAM_INDEX_MAX);
    expect(listed[0]).toBe(TEAM_INDEX_MAX + 5);
    expect(listed.at(-1)).toBe(6);
  });

  it("lists a team's own feedback and reviews, newest first, a page at a time, every concurrent write included", async () => {
    const { state } = await open();
    const { feedback, reviews } = await openFeedback(state);
    const one = (await state.createTeam('Notes One', 0))!.team.id;
    const two = (await state.createTeam('Notes Two', 0))!.team.id;
    const sent = await Promise.all(Array.from({ length: TEAM_PAGE + 10 }, (_, i) => feedback.submit(one, { kind: 'idea', message: `idea ${i}` })));
    await feedback.submit(two, { kind: 'bug', message: 'from two' });
    const p1 = await feedback.list(one, null);
    expect(p1.rows).toHaveLength(TEAM_PAGE);
    const p2 = await feedback.list(one, p1.next);
    expect(p2.next).toBeNull();
    expect([...p1.rows, ...p2.rows].map((f) => f.id)).toEqual(sent.map((f) => f.id).sort((a, b) => b - a));
    expect(p1.rows[0]).toEqual(sent.find((f) => f.id === p1.rows[0].id));
    expect((await feedback.list(two, null)).rows.map((f) => f.message)).toEqual(['from two']);

    await Promise.all(Array.from({ length: 30 }, (_, i) => reviews.submit(one, { endpoint_id: `e${i}.x`, usefulness: 'useful', reason: `r${i}` })));
    // a second review of an endpoint in the month replaces the first, in the listing too
    await reviews.submit(one, { endpoint_id: 'e3.x', usefulness: 'partly', reason: 'again' });
    await reviews.submit(two, { endpoint_id: 'e3.x', usefulness: 'not_useful', reason: 'two on e3' });
    await reviews.submit(two, { endpoint_id: 'hub:maker-tool', usefulness: 'useful', reason: 'two on a tool' });
    const mine = await reviews.list(one, null);
    expect(mine.next).toBeNull();
    expect(mine.rows).toHaveLength(30);
    expect(mine.rows[0]).toMatchObject({ endpoint_id: 'e3.x', usefulness: 'partly', reason: 'again', month: expect.stringMatching(/^\d{4}-\d{2}$/) });
    expect(mine.rows.map((r) => r.id)).toEqual(mine.rows.map((r) => r.id).sort((a, b) => b - a));
    expect(new Set(mine.rows.map((r) => r.endpoint_id)).size).toBe(30);
    expect((await reviews.list(two, null)).rows.map((r) => [r.endpoint_id, r.reason])).toEqual([
      ['hub:maker-tool', 'two on a tool'],
      ['e3.x', 'two on e3'],
    ]);
  });

  it('computes observed from recorded attempts and bumps the version', async () => {
    const { state } = await open();
    const v0 = state.observations.version();
    const now = Date.now();
    for (let i = 0; i < 30; i++)
      state.recordAttempt('searchco.google.serp.organic', { outcome: i % 3 === 0 ? 'miss' : i % 10 === 1 ? 'error' : 'hit', ms: i + 1, at: now });
    state.recordAttempt('searchco.google.serp.organic', { outcome: 'skipped', ms: 0, at: now });
    expect(state.observations.version()).toBe(v0 + 31);
    const o = state.observations.observed('searchco.google.serp.organic')!;
    expect(o).toMatchObject({ samples: 30, decided: 28, ok_rate: 28 / 30, p50_ms: 15, p95_ms: 29, last_ok_days: 0, hit_rate: 18 / 28, hit_samples: 18 });
    expect(state.observations.observed('nobody')).toBeNull();
  });

  it('summarises only the latest WINDOW attempts, and stores no more than that', async () => {
    const { state } = await open();
    const now = Date.now();
    // 1.5 windows of errors, then a window of hits: the errors must all have left the window
    for (let i = 0; i < WINDOW * 1.5; i++) state.recordAttempt('e', { outcome: 'error', ms: 900, at: now });
    for (let i = 0; i < WINDOW; i++) state.recordAttempt('e', { outcome: 'hit', ms: 5, at: now });
    expect(state.observations.observed('e')).toMatchObject({ samples: WINDOW, ok_rate: 1, p95_ms: 5, hit_samples: WINDOW });
    state.recordAttempt('e', { outcome: 'miss', ms: 7, at: now });
    await state.observations.flush();
    const stored = await state.atomics.update<{ o: string; ms: number[] }>('obs:e', () => undefined);
    expect([stored!.o.length, stored!.ms.length, stored!.o.at(-1)]).toEqual([WINDOW, WINDOW, 'm']);
  });

  it('counts reported charges beside the list price: how often they differed and by how much, over the latest WINDOW reports', async () => {
    const { state } = await open();
    const now = Date.now();
    const at = (list_micro: number, reported_micro: number) =>
      state.recordAttempt('r', { outcome: 'hit', ms: 1, at: now, charge: { list_micro, reported_micro } });
    state.recordAttempt('r', { outcome: 'hit', ms: 1, at: now }); // no report: not counted
    at(1000, 1000);
    at(1000, 2000);
    at(1000, 4000);
    at(1000, 500);
    at(0, 300); // a miss the list calls free, reported as charged: a difference, with no ratio
    expect(state.observations.observed('r')!.charges).toEqual({ reports: 5, differed: 4, above: 3, below: 1, mean_delta_micro: 950, mean_ratio: 2.167 });
    expect(state.observations.observed('plain')).toBeNull();
    state.recordAttempt('plain', { outcome: 'hit', ms: 1, at: now });
    expect(state.observations.observed('plain')!.charges).toBeUndefined();
    for (let i = 0; i < WINDOW * 2; i++) at(1000, 1000);
    await state.observations.flush();
    const stored = await state.atomics.update<{ rl: number[]; rr: number[] }>('obs:r', () => undefined);
    expect([stored!.rl.length, stored!.rr.length]).toEqual([WINDOW, WINDOW]);
  });
  it('keeps what each routed call cost its caller, over the latest WINDOW calls, and answers the average per hit', async () => {
    const { state } = await open();
    const now = Date.now();
    state.recordAttempt('svc.x', { outcome: 'hit', ms: 1, at: now, paid_micro: 3000 });
    state.recordAttempt('svc.x', { outcome: 'miss', ms: 1, at: now, paid_micro: 500 });
    state.recordAttempt('svc.x', { outcome: 'hit', ms: 1, at: now, paid_micro: 1000 });
    state.recordAttempt('svc.x', { outcome: 'error', ms: 1, at: now }); // no cost recorded: not among the calls
    expect(state.observations.observed('svc.x')!.paid).toEqual({ calls: 3, hits: 2, total_micro: 4500, per_hit_micro: 2250 });
    state.recordAttempt('svc.none', { outcome: 'miss', ms: 1, at: now, paid_micro: 700 });
    expect(state.observations.observed('svc.none')!.paid).toEqual({ calls: 1, hits: 0, total_micro: 700, per_hit_micro: null });
    // a window and a half of dear misses, then a window of cheap hits: only the hits are left
    for (let i = 0; i < WINDOW * 1.5; i++) state.recordAttempt('svc.w', { outcome: 'miss', ms: 1, at: now, paid_micro: 9000 });
    for (let i = 0; i < WINDOW; i++) state.recordAttempt('svc.w', { outcome: 'hit', ms: 1, at: now, paid_micro: 10 });
    expect(state.observations.observed('svc.w')!.paid).toEqual({ calls: WINDOW, hits: WINDOW, total_micro: 10 * WINDOW, per_hit_micro: 10 });
    await state.observations.flush();
    const stored = await state.atomics.get<{ o: string; c: number[] }>('obs:svc.w');
    expect([stored!.o.length, stored!.c.length]).toEqual([WINDOW, WINDOW]);
  });
});

describe('embedded fs backend across a restart', () => {
  it('reopens with teams, balances, ledger, ids and observations intact', async () => {
    const dir = tempDir();
    const config = { storage: { kind: 'fs' as const, dir: null }, dataDir: dir, secret: null };
    const a = await openState(config);
    const { team, token } = (await a.createTeam('Durable', 100))!;
    for (let i = 0; i < 70; i++) await a.charge(team.id, 1, { endpoint_id: 'e' }); // crosses a checkpoint
    await a.setOwnKey(team.id, 'zerobounce', 'zb-key');
    await a.atomics.nextId('x');
    a.recordAttempt('zerobounce.people.email.verify', { outcome: 'hit', ms: 12, at: Date.now() });
    await a.observations.flush(); // (close() is not called: the ledger must not depend on it)
    const b = await openState(config);
    expect(await b.balance(team.id)).toBe(30);
    expect((await b.teamForCredential({ token }))?.slug).toBe('durable');
    expect(await b.ownKey(team.id, 'zerobounce')).toBe('zb-key'); // generated secret reused from the data dir
    expect(await b.atomics.nextId('x')).toBe(2);
    expect((await b.ledger(team.id, null)).entries[0].id).toBe(71);
    expect(b.observations.observed('zerobounce.people.email.verify')?.samples).toBe(1);
    expect(b.observations.calls30d().get('zerobounce.people.email.verify')).toBe(1); // the day counts too
    expect(readFileSync(join(dir, 'secret'), 'utf8').trim()).toMatch(/^[0-9a-f]{64}$/);
  });

  it('opens a series stored before reported charges were counted, and counts them from then on', async () => {
    const dir = tempDir();
    const config = { storage: { kind: 'fs' as const, dir: null }, dataDir: dir, secret: null };
    const a = await openState(config);
    const now = Date.now();
    // the stored shape before this change: no rl / rr lists
    await a.atomics.update('obs:old', () => ({ o: 'hm', ms: [3, 4], at: [now, now], days: { [Math.floor(now / 86_400_000)]: 2 } }));
    const b = await openState(config);
    expect(b.observations.observed('old')).toMatchObject({ samples: 2, hit_samples: 1 });
    expect(b.observations.observed('old')!.charges).toBeUndefined();
    b.recordAttempt('old', { outcome: 'hit', ms: 5, at: now, charge: { list_micro: 1000, reported_micro: 3000 } });
    await new Promise((r) => setTimeout(r, SUMMARY_TTL_MS + 50)); // a summary may be reused that long
    expect(b.observations.observed('old')).toMatchObject({ samples: 3, charges: { reports: 1, differed: 1, above: 1, mean_delta_micro: 2000, mean_ratio: 3 } });
  });

  it("opens a routed entry's series stored before costs were kept: the average covers only the calls since", async () => {
    const dir = tempDir();
    const config = { storage: { kind: 'fs' as const, dir: null }, dataDir: dir, secret: null };
    const a = await openState(config);
    const now = Date.now();
    // the stored shape before this change: no c list
    await a.atomics.update('obs:svc.old', () => ({ o: 'hhm', ms: [3, 4, 5], at: [now, now, now], days: { [Math.floor(now / 86_400_000)]: 3 } }));
    const b = await openState(config);
    expect(b.observations.observed('svc.old')).toMatchObject({ samples: 3, hit_samples: 2 });
    expect(b.observations.observed('svc.old')!.paid).toBeUndefined();
    b.recordAttempt('svc.old', { outcome: 'hit', ms: 5, at: now, paid_micro: 4000 });
    b.recordAttempt('svc.old', { outcome: 'miss', ms: 5, at: now, paid_micro: 1000 });
    await new Promise((r) => setTimeout(r, SUMMARY_TTL_MS + 50)); // a summary may be reused that long
    expect(b.observations.observed('svc.old')).toMatchObject({
      samples: 5,
      hit_samples: 3,
      paid: { calls: 2, hits: 1, total_micro: 5000, per_hit_micro: 5000 },
    });
    // and the costs outlive the next restart
    await b.observations.flush();
    const c = await openState(config);
    expect(c.observations.observed('svc.old')!.paid).toEqual({ calls: 2, hits: 1, total_micro: 5000, per_hit_micro: 5000 });
  });
});

describe('ledger entries the last release wrote, without reported figures', () => {
  // A charge as the last release stored it: its references and amount, no list_micro / reported_*.
  // (Memory keeps nothing across a restart, so it holds no such data.)
  const OLD_CHARGE = {
    id: 2,
    at: '2026-11-30T10:00:00.000Z',
    kind: 'charge',
    amount_micro: -300,
    endpoint_id: 'serper.google.serp.organic',
    call_id: 'call_old',
  };
  const figures = { list_micro: 1_000, reported_micro: 500, reported_value: 0.5, reported_unit: 'credits' };

  /** the old charge reads as written, beside a new one with figures; the old one refunds; a restart reads both */
  async function readsOldAndNew(open: () => Promise<State>, teamId: number): Promise<void> {
    const b = await open();
    expect(await b.balance(teamId)).toBe(700);
    expect((await b.ledger(teamId, null)).entries[0]).toEqual(OLD_CHARGE);
    expect(await b.charge(teamId, 500, { endpoint_id: 'serper.google.serp.organic', call_id: 'call_new', ...figures })).toBe(true);
    expect(await b.atomics.refund(`team-${teamId}`, 2, 300)).toMatchObject({ kind: 'credit', amount_micro: 300, call_id: 'call_old' });
    await b.close();
    const c = await open();
    const entries = (await c.ledger(teamId, null)).entries.map((e) => JSON.parse(JSON.stringify(e)));
    expect(entries.map((e) => [e.id, e.kind, e.amount_micro])).toEqual([
      [4, 'credit', 300],
      [3, 'charge', -500],
      [2, 'charge', -300],
      [1, 'credit', 1_000],
    ]);
    expect(entries[1]).toMatchObject({ call_id: 'call_new', ...figures });
    expect(entries[2]).toEqual(OLD_CHARGE);
    expect(await c.balance(teamId)).toBe(1_000 - 300 - 500 + 300);
    await c.close();
  }

  it('embedded: a ledger file with the old lines opens, reads them as written and goes on after them', async () => {
    const dir = tempDir();
    const config = { storage: { kind: 'fs' as const, dir: null }, dataDir: dir, secret: null };
    const a = await openState(config);
    const { team } = (await a.createTeam('Old Ledger', 1_000))!;
    await a.close();
    // the last release's line for a chunk of one charge, byte for byte
    appendFileSync(join(dir, LEDGER_DIR, `team-${team.id}.jsonl`), `${JSON.stringify([{ ...OLD_CHARGE, balance_after: 700, earnings_after: 0 }])}\n`);
    await readsOldAndNew(() => openState(config), team.id);
  });

  it('redis: a ledger list with the old entries opens, reads them as written and goes on after them', async () => {
    await redis.flush();
    const config = { storage: { kind: 'redis' as const, url: redis.url() }, dataDir: tempDir(), secret: 'test-secret' };
    const a = await openState(config);
    const { team } = (await a.createTeam('Old Ledger', 1_000))!;
    await a.close();
    // the last release's entry as its post script pushed it, and the account it moved
    const client = new Redis(redis.url());
    try {
      await client.rpush(`ledger:team-${team.id}`, JSON.stringify(OLD_CHARGE));
      await client.hset(`acct:team-${team.id}`, 'balance', 700, 'seq', 2);
    } finally {
      client.disconnect();
    }
    await readsOldAndNew(() => openState(config), team.id);
  });
});
