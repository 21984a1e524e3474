// Every answer of a paid door names its call id, in the body (`call_id`) and in X-Svc-Call-Id, so a
// caller can match it to the ledger: refusals, and the 503 of storage that stopped answering, too.
// The four doors: a routed call, a pass-through call, a batch row and a hub run; Redis of its own.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURE_DIST } from '../helpers/paths.ts';
import { routedWorld, type RoutedWorld } from '../helpers/routed.ts';
import { ownRedis, type OwnRedis } from '../helpers/redis-server.ts';
import { emailTool } from '../hub/tool-files.ts';
import { readLines } from '../helpers/ndjson.ts';

let redis: OwnRedis;
let w: RoutedWorld;

beforeAll(async () => {
  redis = await ownRedis('off');
  w = await routedWorld(FIXTURE_DIST, { creditMicro: 100_000_000, env: { SVC_STORAGE: redis.url(0) } });
  const published = await w.call('/hub/tools', { tool_id: 'ids-tool', files: emailTool() });
  expect(published.body.status).toBe('live');
}, 60_000);
afterAll(async () => {
  await w.close();
  await w.ctx.state.close();
  await redis.stop();
});

interface Door {
  name: string;
  send: () => Promise<{ status: number; headers: Headers; body: any }>;
}

const post = async (path: string, body: unknown, headers: Record<string, string> = {}) => w.call(path, body, headers);
const batchRow = async (body: string) => {
  const r = await fetch(`${w.url}/proxy/people.email.verify/batch`, {
    method: 'POST',
    headers: { 'x-svc-token': w.token, 'content-type': 'application/x-ndjson' },
    body,
  });
  const lines = await readLines(r);
  // a row has no headers of its own: its line carries the id; a batch refused whole (its credential
  // not checked for storage) is one JSON answer naming the batch's id
  if (lines[0].status === undefined) return { status: r.status, headers: r.headers, body: lines[0] };
  return { status: lines[0].status as number, headers: new Headers({ 'x-svc-call-id': String(lines[0].call_id ?? lines[0]._svc?.call_id) }), body: lines[0] };
};

/** each door, sent what it refuses */
const refused: Door[] = [
  { name: 'routed', send: () => post('/proxy/people.email.verify', { email: 'jane@acme.com', emial: 'x' }) },
  { name: 'pass-through', send: () => post('/proxy/zerobounce/validate?email=jane@acme.com', undefined, { 'X-Svc-Route-Prefer': 'zerobounce' }) },
  { name: 'batch row', send: () => batchRow('{"email":"jane@acme.com","emial":"x"}\n') },
  { name: 'hub run', send: () => post('/hub/tools/ids-tool/run', { input: { domain: 'acme.com' } }) },
];

/** each door, sent what it would serve */
const served: Door[] = [
  { name: 'routed', send: () => post('/proxy/people.email.verify', { email: 'jane@acme.com' }) },
  { name: 'pass-through', send: () => w.call('/proxy/zerobounce/validate?email=jane@acme.com') },
  { name: 'batch row', send: () => batchRow('{"email":"jane@acme.com"}\n') },
  { name: 'hub run', send: () => post('/hub/tools/ids-tool/run', { input: { domain: 'acme.com', full_name: 'Jane Doe' } }) },
];

const named = (r: { headers: Headers; body: any }) => {
  const id = r.body.call_id ?? r.body._svc?.call_id;
  expect(id).toMatch(/^call_[0-9a-f]+$/);
  expect(r.headers.get('x-svc-call-id')).toBe(id);
};

describe('every answer of a paid door names its call id', () => {
  it.each(refused)('a refusal by the $name door', async ({ send }) => {
    const r = await send();
    expect(r.status).toBe(422);
    named(r);
  });

  /** a body sent as written, with the world's token unless told otherwise */
  const raw = async (path: string, body: string, headers: Record<string, string> = { 'x-svc-token': w.token }) => {
    const r = await fetch(w.url + path, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });
    return { status: r.status, headers: r.headers, body: await r.json() };
  };

  it.each([
    { sent: 'not JSON', body: 'not json', status: 400 },
    { sent: 'a list', body: '[]', status: 422 },
    { sent: 'nothing', body: '', status: 422 },
    { sent: 'no input', body: '{}', status: 422 },
    { sent: 'an input that is not an object', body: '{"input":"x"}', status: 422 },
    { sent: 'a field a run does not take', body: '{"input":{"domain":"acme.com","full_name":"Jane Doe"},"extra":1}', status: 422 },
  ])('a hub run sent $sent is refused ($status) before it runs, and the refusal names a call id', async ({ body, status }) => {
    const r = await raw('/hub/tools/ids-tool/run', body);
    expect(r.status).toBe(status);
    named(r);
  });

  it('a refused credential, by each door; and a batch refused whole', async () => {
    for (const path of ['/proxy/people.email.verify', '/proxy/zerobounce/validate', '/hub/tools/ids-tool/run', '/proxy/people.email.verify/batch']) {
      const r = await raw(path, '{}', { 'x-svc-token': 'svc_not-a-token' });
      expect(r.status, path).toBe(401);
      named(r);
    }
    for (const path of ['/proxy/people.email.verify/batch', '/hub/tools/ids-tool/batch']) {
      const r = await raw(path, '', { 'x-svc-token': w.token, 'content-type': 'application/x-ndjson' });
      expect(r.status, path).toBeGreaterThanOrEqual(400);
      named(r);
    }
  });

  it('a storage 503 by each door, while Redis is away; each says nothing was charged', async () => {
    // the team is known to the instance already (the calls above): what fails is the money
    await redis.kill();
    try {
      for (const door of served) {
        const r = await door.send();
        expect(r.status, door.name).toBe(503);
        expect(JSON.stringify(r.body.detail), door.name).toMatch(/nothing was charged/);
        named(r);
      }
    } finally {
      await redis.start();
    }
  });
});
