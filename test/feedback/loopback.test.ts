// Feedback and reviews over a real server on loopback: the catalog entry (answered by the server's
// fast path) shows a review, and its replacement, as soon as each is acknowledged.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { FIXTURE_DIST } from '../helpers/paths.ts';
import { appContext, serve } from '../helpers/server.ts';

let base = '';
let token = '';
let close: () => Promise<void>;
beforeAll(async () => {
  const ctx = await appContext(FIXTURE_DIST);
  token = (await ctx.state.createTeam('Loop', 0))!.token;
  const s = await serve(ctx);
  base = s.url;
  close = s.close;
});
afterAll(() => close());

const post = async (path: string, body: unknown) => {
  const r = await fetch(base + path, { method: 'POST', headers: { 'x-svc-token': token, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: r.status, body: await r.json() };
};
const reviewsOf = async (id: string) => (await (await fetch(`${base}/catalog/endpoints/${id}`)).json()).endpoint.reviews;

it('stores feedback and reviews over HTTP, and the entry shows each review at once', async () => {
  const fb = await post('/feedback', { kind: 'bug', message: 'Over the wire.' });
  expect(fb.status).toBe(201);
  const back = await fetch(`${base}/feedback/${fb.body.id}`, { headers: { 'x-svc-token': token } });
  expect((await back.json()).message).toBe('Over the wire.');

  const id = 'zerobounce.people.email.verify';
  expect(await reviewsOf(id)).toBeUndefined();
  expect((await post('/reviews', { endpoint_id: id, usefulness: 'not_useful', reason: 'first' })).status).toBe(201);
  expect((await reviewsOf(id)).samples.map((s: { reason: string }) => s.reason)).toEqual(['first']);
  expect((await post('/reviews', { endpoint_id: id, usefulness: 'useful', reason: 'second' })).body.replaced).toBe(true);
  expect(await reviewsOf(id)).toMatchObject({ teams: 1, samples: [{ reason: 'second', usefulness: 'useful' }], share: { useful: 1 } });
});

it('names the allowed values when a kind or a usefulness is not one of them', async () => {
  const fb = await post('/feedback', { kind: 'rant', message: 'x' });
  expect(fb.status).toBe(422);
  expect(fb.body.detail).toEqual([
    { loc: ['body', 'kind'], msg: "'kind' must be one of bug, wrong_data, missing, pricing, idea or other.", type: 'value_error.enum' },
  ]);
  const rv = await post('/reviews', { endpoint_id: 'zerobounce.people.email.verify', usefulness: 'meh', reason: 'x' });
  expect(rv.status).toBe(422);
  expect(rv.body.detail[0].msg).toBe("'usefulness' must be one of useful, partly or not_useful.");
});

it('refuses a message or reason made only of invisible characters (controls, zero-width, a lone surrogate)', async () => {
  for (const invisible of ['\u0000', '\u200b\u200d', '\u0007 \t', '\ud800']) {
    const fb = await post('/feedback', { kind: 'idea', message: invisible });
    expect(fb.status, JSON.stringify(invisible)).toBe(422);
    expect(fb.body.detail[0]).toMatchObject({ loc: ['body', 'message'], msg: "'message' must be text with at least one visible character." });
    const rv = await post('/reviews', { endpoint_id: 'zerobounce.people.email.verify', usefulness: 'useful', reason: invisible });
    expect(rv.status, JSON.stringify(invisible)).toBe(422);
  }
  // visible text in any script, or an emoji alone, still passes
  for (const message of ['é', '日本', '😀', '\u200bok']) expect((await post('/feedback', { kind: 'idea', message })).status).toBe(201);
});
