// POST /reviews through app.fetch, and the summaries it feeds on catalog entries: one review per
// team, endpoint and month (UTC, from the service's clock), replacement, samples, share.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, jsonInit, testApp } from '../runtime/app-helper.ts';
import { setClock } from '../../runtime/util/clock.ts';

type App = Awaited<ReturnType<typeof testApp>>;
let t: App;
const tokens: string[] = [];
let clock = Date.parse('2026-03-15T12:00:00Z');

async function call(path: string, init?: RequestInit): Promise<{ status: number; body: any }> {
  const res = await t.call(path, init);
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}
const review = (body: unknown, token: string | null, headers: Record<string, string> = {}) =>
  call('/reviews', jsonInit('POST', body, token ? { 'x-svc-token': token, ...headers } : headers));
const entry = async (id: string) => (await call(`/catalog/endpoints/${id}`)).body;

beforeAll(async () => {
  setClock(() => clock);
  t = await testApp();
  for (const name of ['Alpha', 'Beta', 'Gamma', 'Delta', 'Epsilon', 'Zeta', 'Eta']) {
    tokens.push((await call('/admin/teams', jsonInit('POST', { name }, { 'x-svc-admin': ADMIN }))).body.token);
  }
});
afterAll(() => setClock(null));

describe('POST /reviews', () => {
  it('answers 201 {id, endpoint_id, usefulness, month} with the month of the clock, in UTC', async () => {
    clock = Date.parse('2026-03-31T23:59:59.999Z');
    const r = await review({ endpoint_id: 'findco.people.email.find', usefulness: 'useful', reason: 'Found 9 of 10.', client: 'crm-sync' }, tokens[0]);
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ endpoint_id: 'findco.people.email.find', usefulness: 'useful', month: '2026-03', replaced: false });
    expect(r.body.id).toBeTypeOf('number');
    clock = Date.parse('2026-04-01T00:00:00.000Z');
    const next = await review({ endpoint_id: 'findco.people.email.find', usefulness: 'partly', reason: 'Misses small companies.' }, tokens[0]);
    expect(next.body).toMatchObject({ month: '2026-04', replaced: false });
    expect(next.body.id).toBeGreaterThan(r.body.id);
    // a new month is a new review: the team counts once, its latest verdict is its share
    const s = (await entry('findco.people.email.find')).endpoint.reviews;
    expect(s).toEqual({
      teams: 1,
      samples: [
        { usefulness: 'partly', reason: 'Misses small companies.', client: '', month: '2026-04' },
        { usefulness: 'useful', reason: 'Found 9 of 10.', client: 'crm-sync', month: '2026-03' },
      ],
      share: { useful: 0, partly: 1, not_useful: 0 },
    });
  });

  it("replaces the same team's review of the same endpoint in the same month; other teams' stand", async () => {
    clock = Date.parse('2026-05-02T08:00:00Z');
    const id = 'zerobounce.people.email.verify';
    const first = await review({ endpoint_id: id, usefulness: 'not_useful', reason: 'Every answer was unknown.' }, tokens[1]);
    const other = await review({ endpoint_id: id, usefulness: 'useful', reason: 'Fast and cheap.' }, tokens[2]);
    // read now, so the entry's cache holds the first version: the replacement must show at once all the same
    expect((await entry(id)).endpoint.reviews.samples[1].reason).toBe('Every answer was unknown.');
    clock = Date.parse('2026-05-30T08:00:00Z');
    const second = await review({ endpoint_id: id, usefulness: 'useful', reason: 'Fixed after their update.' }, tokens[1]);
    expect(second.status).toBe(201);
    expect(second.body).toMatchObject({ month: '2026-05', replaced: true });
    expect(second.body.id).toBeGreaterThan(first.body.id);
    expect(other.body.replaced).toBe(false);
    const s = (await entry(id)).endpoint.reviews;
    expect(s.teams).toBe(2);
    expect(s.samples.map((x: { reason: string }) => x.reason)).toEqual(['Fixed after their update.', 'Fast and cheap.']);
    expect(s.share).toEqual({ useful: 1, partly: 0, not_useful: 0 });
  });

  it('keeps exactly one review when one team sends 20 at once', async () => {
    clock = Date.parse('2026-06-10T00:00:00Z');
    const id = 'searchco.google.serp.organic';
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => review({ endpoint_id: id, usefulness: 'partly', reason: `take ${i}` }, tokens[3])));
    for (const a of answers) expect(a.status).toBe(201);
    expect(new Set(answers.map((a) => a.body.id)).size).toBe(20);
    expect(answers.filter((a) => !a.body.replaced)).toHaveLength(1);
    const s = (await entry(id)).endpoint.reviews;
    expect(s.teams).toBe(1);
    expect(s.samples).toHaveLength(1);
    // the one that stands is the last written: the highest id
    const last = answers.reduce((a, b) => (b.body.id > a.body.id ? b : a));
    expect(s.samples[0].reason).toBe(`take ${answers.indexOf(last)}`);
  });

  it('shows the latest 5 samples newest first, teams and share over every team, on the entry and wherever it is a sibling', async () => {
    clock = Date.parse('2026-07-01T00:00:00Z');
    const id = 'checkco.people.email.verify';
    const verdicts = ['useful', 'useful', 'partly', 'not_useful', 'useful', 'partly', 'useful'] as const;
    for (const [i, usefulness] of verdicts.entries()) {
      expect((await review({ endpoint_id: id, usefulness, reason: `team ${i}` }, tokens[i])).status).toBe(201);
    }
    const s = (await entry(id)).endpoint.reviews;
    expect(s.teams).toBe(7);
    expect(s.samples.map((x: { reason: string }) => x.reason)).toEqual(['team 6', 'team 5', 'team 4', 'team 3', 'team 2']);
    expect(s.share).toEqual({ useful: 0.571, partly: 0.286, not_useful: 0.143 });
    // as a sibling of the other verifier and of the routed entry
    const sib = (await entry('zerobounce.people.email.verify')).siblings.find((x: { id: string }) => x.id === id);
    expect(sib.reviews).toEqual(s);
    const routed = (await entry('svc.people.email.verify')).siblings.find((x: { id: string }) => x.id === id);
    expect(routed.reviews).toEqual(s);
    // an endpoint nobody reviewed has no summary
    expect((await entry('findco.people.email.find.bulk')).endpoint.reviews).toBeUndefined();
  });

  it('takes a review of a routed entry', async () => {
    const r = await review({ endpoint_id: 'svc.people.email.find', usefulness: 'useful', reason: 'The waterfall found what one provider missed.' }, tokens[4]);
    expect(r.status).toBe(201);
    expect((await entry('svc.people.email.find')).endpoint.reviews.teams).toBe(1);
  });

  it("answers 401 without a credential, 403 for another team's x-svc-org, and stores nothing", async () => {
    const ok = { endpoint_id: 'findco.people.email.find.bulk', usefulness: 'useful', reason: 'x' };
    expect((await review(ok, null)).status).toBe(401);
    expect((await review(ok, 'svc_bad')).status).toBe(401);
    expect((await review(ok, tokens[0], { 'x-svc-org': 'beta' })).status).toBe(403);
    expect((await entry('findco.people.email.find.bulk')).endpoint.reviews).toBeUndefined();
  });

  it('answers 422 naming the field for an unknown endpoint and for bad fields, and stores nothing', async () => {
    const before = await t.state.atomics.counter('id:review');
    const cases: Array<[unknown, Array<string | number>]> = [
      [{ endpoint_id: 'nobody.people.enrich', usefulness: 'useful', reason: 'x' }, ['body', 'endpoint_id']],
      [{ usefulness: 'useful', reason: 'x' }, ['body', 'endpoint_id']],
      [{ endpoint_id: 'findco.people.email.find', usefulness: 'great', reason: 'x' }, ['body', 'usefulness']],
      [{ endpoint_id: 'findco.people.email.find', usefulness: 'useful' }, ['body', 'reason']],
      [{ endpoint_id: 'findco.people.email.find', usefulness: 'useful', reason: '' }, ['body', 'reason']],
      [{ endpoint_id: 'findco.people.email.find', usefulness: 'useful', reason: 'r'.repeat(501) }, ['body', 'reason']],
      [{ endpoint_id: 'findco.people.email.find', usefulness: 'useful', reason: 'x', client: 'c'.repeat(65) }, ['body', 'client']],
      [{ endpoint_id: 'findco.people.email.find', usefulness: 'useful', reason: 'x', stars: 5 }, ['body', 'stars']],
    ];
    for (const [body, loc] of cases) {
      const r = await review(body, tokens[5]);
      expect(r.status, JSON.stringify(body)).toBe(422);
      expect(r.body.detail.map((d: { loc: unknown }) => d.loc)).toContainEqual(loc);
    }
    expect(await t.state.atomics.counter('id:review')).toBe(before);
    // the limits themselves are accepted
    expect(
      (await review({ endpoint_id: 'findco.people.email.find', usefulness: 'useful', reason: 'r'.repeat(500), client: 'c'.repeat(64) }, tokens[5])).status,
    ).toBe(201);
  });
});
