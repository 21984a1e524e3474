// The feedback and review stores over the embedded fs backend: what they acknowledged is there after
// a restart, summaries included; the last release's records (written before each team's index)
// listed by this one, on the embedded and Redis backends; and the summary's arithmetic on its own.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createState } from '../../runtime/state/index.ts';
import { openFeedback } from '../../runtime/feedback/open.ts';
import { setClock } from '../../runtime/util/clock.ts';
import { summarise, type StoredReview } from '../../runtime/feedback/summary.ts';
import { suiteRedis } from '../helpers/redis.ts';

const redis = suiteRedis();

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});
afterEach(() => setClock(null));

describe('feedback and reviews on the embedded backend', () => {
  it('reopen with every record, the review counter and the summaries as they were', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-feedback-'));
    dirs.push(dir);
    const config = { storage: { kind: 'fs' as const, dir: null }, dataDir: dir, secret: 'test-secret' };
    const a = await createState(config);
    const opened = await openFeedback(a);
    const one = (await a.createTeam('One', 0))!.team.id;
    const two = (await a.createTeam('Two', 0))!.team.id;
    const fb = await opened.feedback.submit(one, { kind: 'missing', message: 'Add a Hunter bulk finder.', context: { n: 1 } });
    setClock(() => Date.parse('2026-01-20T00:00:00Z'));
    await opened.reviews.submit(one, { endpoint_id: 'x.people.enrich', usefulness: 'useful', reason: 'January' });
    setClock(() => Date.parse('2026-02-03T00:00:00Z'));
    await opened.reviews.submit(one, { endpoint_id: 'x.people.enrich', usefulness: 'not_useful', reason: 'February' });
    await opened.reviews.submit(one, { endpoint_id: 'x.people.enrich', usefulness: 'partly', reason: 'February, again' });
    await opened.reviews.submit(two, { endpoint_id: 'y.companies.enrich', usefulness: 'useful', reason: 'Other endpoint' });
    const summaries = ['x.people.enrich', 'y.companies.enrich'].map((id) => opened.reviews.summary(id));
    expect(summaries[0]!.samples.map((s) => s.reason)).toEqual(['February, again', 'January']);

    const b = await createState(config);
    const reopened = await openFeedback(b);
    expect(await reopened.feedback.get(one, fb.id)).toEqual(fb);
    expect(await reopened.feedback.get(two, fb.id)).toBeNull();
    expect(['x.people.enrich', 'y.companies.enrich'].map((id) => reopened.reviews.summary(id))).toEqual(summaries);
    // the next review replaces the stored one of the month, and ids go on from where they were
    const next = await reopened.reviews.submit(one, { endpoint_id: 'x.people.enrich', usefulness: 'useful', reason: 'February, third' });
    expect(next.replaced).toBe(true);
    expect(next.review.id).toBe(5);
    expect(reopened.reviews.summary('x.people.enrich')!.samples.map((s) => s.reason)).toEqual(['February, third', 'January']);
    expect((await reopened.feedback.submit(two, { kind: 'bug', message: 'x' })).id).toBe(fb.id + 1);
  });
});

describe.each([
  { name: 'embedded fs', storage: () => ({ kind: 'fs' as const, dir: null }) },
  { name: 'redis', storage: () => ({ kind: 'redis' as const, url: redis.url() }) },
])("the last release's feedback and reviews over $name", ({ storage }) => {
  it('are listed by their team once reopened', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-feedback-'));
    dirs.push(dir);
    const config = { storage: storage(), dataDir: dir, secret: 'test-secret' };
    const a = await createState(config);
    const first = await openFeedback(a);
    const team = (await a.createTeam('Old Notes', 0))!.team.id;
    const other = (await a.createTeam('Other Notes', 0))!.team.id;
    const fb = [await first.feedback.submit(team, { kind: 'bug', message: 'first' }), await first.feedback.submit(team, { kind: 'idea', message: 'second' })];
    await first.feedback.submit(other, { kind: 'other', message: 'not theirs' });
    await first.reviews.submit(team, { endpoint_id: 'x.people.enrich', usefulness: 'partly', reason: 'old review' });
    await first.reviews.submit(other, { endpoint_id: 'x.people.enrich', usefulness: 'useful', reason: 'not theirs' });
    // the last release wrote the same records and no index: take the indexes away
    for (const t of [team, other]) for (const k of [`team-feedback:${t}`, `team-reviews:${t}`]) await a.atomics.remove(k);
    expect((await first.feedback.list(team, null)).rows).toEqual([]);
    expect((await first.reviews.list(team, null)).rows).toEqual([]);
    await a.close();

    const b = await createState(config);
    const again = await openFeedback(b);
    try {
      expect((await again.feedback.list(team, null)).rows).toEqual([fb[1], fb[0]]);
      expect((await again.reviews.list(team, null)).rows).toEqual([
        expect.objectContaining({ endpoint_id: 'x.people.enrich', usefulness: 'partly', reason: 'old review' }),
      ]);
      expect((await again.feedback.list(other, null)).rows.map((f) => f.message)).toEqual(['not theirs']);
    } finally {
      await b.close();
    }
  });
});

describe('summarise', () => {
  const r = (id: number, team_id: number, usefulness: StoredReview['usefulness'], month = '2026-01'): StoredReview => ({
    id,
    team_id,
    usefulness,
    reason: `r${id}`,
    client: '',
    month,
    at: '',
  });

  it('counts each team once, by its latest review, and rounds shares to 3 decimals', () => {
    const s = summarise([r(1, 1, 'not_useful'), r(2, 2, 'useful'), r(3, 3, 'partly'), r(4, 1, 'useful', '2026-02')])!;
    expect(s.teams).toBe(3);
    expect(s.share).toEqual({ useful: 0.667, partly: 0.333, not_useful: 0 });
    expect(s.samples.map((x) => x.reason)).toEqual(['r4', 'r3', 'r2', 'r1']);
  });

  it('keeps the latest 5 samples, and is undefined with no review', () => {
    expect(summarise([1, 2, 3, 4, 5, 6, 7].map((i) => r(i, i, 'useful')))!.samples.map((x) => x.reason)).toEqual(['r7', 'r6', 'r5', 'r4', 'r3']);
    expect(summarise([])).toBeUndefined();
  });
});
