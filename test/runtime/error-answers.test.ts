// Refusals thrown below HTTP are a plain StatusError (runtime/util/fail.ts) that h3 never made: the
// app answers each with its status, sentence, headers and 422 issues, and logs none of them; a bug
// (anything else thrown) answers 500 without its insides and is logged once, with its cause.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createApp } from '../../runtime/routes/app.ts';
import { route } from '../../runtime/http/declared-route.ts';
import { balanceTooLow, fail, invalid } from '../../runtime/util/fail.ts';
import { appContext } from '../helpers/server.ts';
import { FIXTURE_DIST } from '../helpers/paths.ts';

const routes = [
  route({
    method: 'GET',
    path: '/t/refused',
    summary: 'refuses',
    tags: ['meta'],
    auth: 'none',
    responses: { 409: 'refused' },
    handle: () => fail(409, 'Taken already.', { 'retry-after': '3' }),
  }),
  route({
    method: 'GET',
    path: '/t/invalid',
    summary: 'invalid',
    tags: ['meta'],
    auth: 'none',
    responses: { 422: 'invalid' },
    handle: () => invalid([{ loc: ['body', 'x'], msg: 'x is wrong', type: 'value_error' }]),
  }),
  route({
    method: 'GET',
    path: '/t/broke',
    summary: 'broke',
    tags: ['meta'],
    auth: 'none',
    responses: { 402: 'broke' },
    handle: () => balanceTooLow(5, 'The balance is too low.'),
  }),
  route({
    method: 'GET',
    path: '/t/bug',
    summary: 'bug',
    tags: ['meta'],
    auth: 'none',
    responses: { 200: 'never' },
    handle: () => {
      throw new TypeError('undefined is not a function');
    },
  }),
  route({ method: 'GET', path: '/t/team', summary: 'team', tags: ['meta'], auth: 'team', responses: { 200: 'ok' }, handle: () => ({ ok: true }) }),
];

afterEach(() => vi.restoreAllMocks());

describe('errors thrown below HTTP', async () => {
  const app = createApp(await appContext(FIXTURE_DIST), routes);
  const get = async (path: string) => {
    const res = await app.fetch(new Request(`http://svc.test${path}`));
    return { status: res.status, headers: res.headers, body: (await res.json()) as { detail: unknown } };
  };

  it('answer their status, sentence, headers and issues, and are not logged', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    const refused = await get('/t/refused');
    expect(refused.status).toBe(409);
    expect(refused.body).toEqual({ detail: 'Taken already.' });
    expect(refused.headers.get('retry-after')).toBe('3');
    expect(await get('/t/invalid')).toMatchObject({ status: 422, body: { detail: [{ loc: ['body', 'x'], msg: 'x is wrong', type: 'value_error' }] } });
    expect(await get('/t/broke')).toMatchObject({ status: 402, body: { detail: 'The balance is too low.' } });
    // the credential check of a declared route throws the same way
    expect(await get('/t/team')).toMatchObject({ status: 401, body: { detail: expect.stringMatching(/^Authentication required/) } });
    expect(logged).not.toHaveBeenCalled();
  });

  it('a bug answers 500 without its insides and is logged once, with its cause', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    expect(await get('/t/bug')).toEqual(expect.objectContaining({ status: 500, body: { detail: 'Internal error; it has been logged.' } }));
    expect(logged).toHaveBeenCalledTimes(1);
    expect(logged.mock.calls[0][1]).toBeInstanceOf(TypeError);
  });
});
