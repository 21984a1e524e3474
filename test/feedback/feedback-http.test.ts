// POST /feedback and GET /feedback/{id} through app.fetch: credentials, validation, ids under
// concurrency, and team isolation.
import { beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, jsonInit, testApp } from '../runtime/app-helper.ts';

type App = Awaited<ReturnType<typeof testApp>>;
let t: App;
let alpha = '';
let beta = '';

async function call(path: string, init?: RequestInit): Promise<{ status: number; body: any }> {
  const res = await t.call(path, init);
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}
const post = (body: unknown, token: string | null, headers: Record<string, string> = {}) =>
  call('/feedback', jsonInit('POST', body, token ? { 'x-svc-token': token, ...headers } : headers));
const read = (id: number | string, headers: Record<string, string>) => call(`/feedback/${id}`, { headers });

beforeAll(async () => {
  t = await testApp();
  const team = async (name: string) => (await call('/admin/teams', jsonInit('POST', { name }, { 'x-svc-admin': ADMIN }))).body.token as string;
  alpha = await team('Alpha');
  beta = await team('Beta');
});

describe('POST /feedback', () => {
  it('stores a record and answers 201 {id, status, created_at}; the team reads it back whole', async () => {
    const body = {
      kind: 'wrong_data',
      message: 'Title is two jobs out of date.',
      endpoint_id: 'findco.people.email.find',
      capability: 'people.email.find',
      context: { call_id: 'c-1', subject: { domain: 'acme.com' } },
    };
    const r = await post(body, alpha);
    expect(r.status).toBe(201);
    expect(Object.keys(r.body).sort()).toEqual(['created_at', 'id', 'status']);
    expect(r.body.id).toBeTypeOf('number');
    expect(r.body.status).toBe('received');
    expect(Number.isNaN(Date.parse(r.body.created_at))).toBe(false);
    const back = await read(r.body.id, { 'x-svc-token': alpha });
    expect(back.status).toBe(200);
    expect(back.body).toEqual({ id: r.body.id, ...body, status: 'received', created_at: r.body.created_at });
  });

  it('takes a dashboard session as well as a token', async () => {
    const session = await t.call('/auth/session', jsonInit('POST', { token: beta }));
    const cookie = session.headers.get('set-cookie')!.split(';')[0];
    const r = await post({ kind: 'idea', message: 'Group by vendor.' }, null, { cookie });
    expect(r.status).toBe(201);
    expect((await read(r.body.id, { cookie })).body.message).toBe('Group by vendor.');
  });

  it('answers 401 without a credential or with a bad one, 403 when x-svc-org names another team, and stores nothing', async () => {
    const before = await t.state.atomics.counter('id:feedback');
    expect((await post({ kind: 'bug', message: 'x' }, null)).status).toBe(401);
    expect((await post({ kind: 'bug', message: 'x' }, 'svc_notatoken')).status).toBe(401);
    expect((await post({ kind: 'bug', message: 'x' }, alpha, { 'x-svc-org': 'beta' })).status).toBe(403);
    expect(await t.state.atomics.counter('id:feedback')).toBe(before);
  });

  it('answers 422 in the HTTPValidationError shape, naming each bad field, and stores nothing', async () => {
    const before = await t.state.atomics.counter('id:feedback');
    const cases: Array<[unknown, Array<string | number>]> = [
      [{ message: 'no kind' }, ['body', 'kind']],
      [{ kind: 'complaint', message: 'x' }, ['body', 'kind']],
      [{ kind: 'bug' }, ['body', 'message']],
      [{ kind: 'bug', message: '' }, ['body', 'message']],
      [{ kind: 'bug', message: '   ' }, ['body', 'message']],
      [{ kind: 'bug', message: 'x'.repeat(4001) }, ['body', 'message']],
      [{ kind: 'bug', message: 'x', extra: 1 }, ['body', 'extra']],
      [{ kind: 'bug', message: 'x', context: 'not an object' }, ['body', 'context']],
      [{ kind: 'bug', message: 'x', context: { blob: 'y'.repeat(16 * 1024) } }, ['body', 'context']],
      [{ kind: 'bug', message: 'x', endpoint_id: 7 }, ['body', 'endpoint_id']],
      [[], ['body']],
    ];
    for (const [body, loc] of cases) {
      const r = await post(body, alpha);
      expect(r.status, JSON.stringify(body).slice(0, 80)).toBe(422);
      expect(r.body.detail.map((d: { loc: unknown }) => d.loc)).toContainEqual(loc);
      for (const d of r.body.detail) expect(Object.keys(d).sort()).toEqual(['loc', 'msg', 'type']);
    }
    // the limits themselves are accepted: 4000 characters, a context of just under 16 KiB
    expect((await post({ kind: 'bug', message: 'é'.repeat(4000) }, alpha)).status).toBe(201);
    expect((await post({ kind: 'other', message: 'x', context: { blob: 'y'.repeat(16 * 1024 - 20) } }, alpha)).status).toBe(201);
    expect(await t.state.atomics.counter('id:feedback')).toBe(before + 2);
    // not JSON is 400
    expect((await post('{"kind":', alpha)).status).toBe(400);
  });

  it('gives 50 concurrent posts 50 distinct ids, each above every earlier one', async () => {
    const earlier = (await post({ kind: 'other', message: 'before' }, alpha)).body.id as number;
    const posts = await Promise.all(Array.from({ length: 50 }, (_, i) => post({ kind: 'other', message: `burst ${i}` }, i % 2 ? alpha : beta)));
    const ids = posts.map((p) => {
      expect(p.status).toBe(201);
      return p.body.id as number;
    });
    expect(new Set(ids).size).toBe(50);
    for (const id of ids) expect(id).toBeGreaterThan(earlier);
    const later = (await post({ kind: 'other', message: 'after' }, alpha)).body.id as number;
    expect(later).toBeGreaterThan(Math.max(...ids));
    // each landed whole under its own id
    for (const [i, id] of ids.entries()) expect((await read(id, { 'x-svc-token': i % 2 ? alpha : beta })).body.message).toBe(`burst ${i}`);
  });
});

describe('GET /feedback/{id}', () => {
  it("is the submitting team's only: another team gets 404, as for an id that does not exist", async () => {
    const mine = (await post({ kind: 'pricing', message: 'Price is per row, not per call.' }, alpha)).body.id as number;
    const other = await read(mine, { 'x-svc-token': beta });
    expect(other.status).toBe(404);
    expect(typeof other.body.detail).toBe('string');
    expect(other.body.detail).not.toContain('Price');
    expect((await read(10_000_000, { 'x-svc-token': alpha })).status).toBe(404);
  });

  it('answers 401 without a credential, 422 for an id that is not a positive integer', async () => {
    expect((await read(1, {})).status).toBe(401);
    for (const bad of ['abc', '1.5', '0', '-3']) {
      const r = await read(bad, { 'x-svc-token': alpha });
      expect(r.status, bad).toBe(422);
      expect(r.body.detail[0].loc).toEqual(['path', 'feedback_id']);
    }
  });
});

describe('GET /teams/me/feedback and /teams/me/reviews', () => {
  it("answer the team's own records newest first, 50 a page with a cursor; 401 without a credential, 422 on a bad cursor", async () => {
    const gamma = (await call('/admin/teams', jsonInit('POST', { name: 'Gamma Lists' }, { 'x-svc-admin': ADMIN }))).body.token as string;
    const ids: number[] = [];
    for (let i = 0; i < 51; i++) ids.push((await post({ kind: 'idea', message: `idea ${i}` }, gamma)).body.id);
    await post({ kind: 'bug', message: 'not gamma' }, alpha);
    const first = await call('/teams/me/feedback', { headers: { 'x-svc-token': gamma } });
    expect(first.status).toBe(200);
    expect(first.body.feedback).toHaveLength(50);
    expect(first.body.feedback[0]).toMatchObject({ id: ids[50], kind: 'idea', message: 'idea 50', status: 'received' });
    const second = await call(`/teams/me/feedback?cursor=${first.body.next_cursor}`, { headers: { 'x-svc-token': gamma } });
    expect(second.body).toEqual({ feedback: [expect.objectContaining({ id: ids[0], message: 'idea 0' })], next_cursor: null });
    expect((await call('/teams/me/feedback')).status).toBe(401);
    expect((await call('/teams/me/feedback?cursor=abc', { headers: { 'x-svc-token': gamma } })).status).toBe(422);

    expect(
      (
        await call(
          '/reviews',
          jsonInit('POST', { endpoint_id: 'findco.people.email.find', usefulness: 'useful', reason: 'Found it.' }, { 'x-svc-token': gamma }),
        )
      ).status,
    ).toBe(201);
    const reviews = await call('/teams/me/reviews', { headers: { 'x-svc-token': gamma } });
    expect(reviews.body).toEqual({
      reviews: [
        expect.objectContaining({
          endpoint_id: 'findco.people.email.find',
          usefulness: 'useful',
          reason: 'Found it.',
          month: expect.stringMatching(/^\d{4}-\d\d$/),
        }),
      ],
      next_cursor: null,
    });
    expect((await call('/teams/me/reviews', { headers: { 'x-svc-token': beta } })).body).toEqual({ reviews: [], next_cursor: null });
  });
});
