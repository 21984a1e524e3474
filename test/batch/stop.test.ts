// A running batch asked to stop (what `svc batch` sends on Ctrl-C): it says which rows are in flight,
// starts no other row, answers those rows on its stream, and its summary says stopped: asked. Every
// row that ran is charged and answered; no row after the stop reaches a provider. The ask is honoured
// when it reaches another instance than the one running the batch (shared Redis), and only the
// batch's own team can make it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURE_DIST } from '../helpers/paths.ts';
import { routedWorld, type RoutedWorld } from '../helpers/routed.ts';
import { testRuntime } from '../helpers/server.ts';
import { ownRedis, type OwnRedis } from '../helpers/redis-server.ts';
import { lines, ndjson } from '../helpers/ndjson.ts';
import { chargesByCall } from '../helpers/batch.ts';

let redis: OwnRedis;
let w: RoutedWorld;
/** a second instance on the same Redis: the stop is sent to it */
let other: { url: string; close: () => Promise<void> };
let slow: string;
beforeAll(async () => {
  redis = await ownRedis('off');
  w = await routedWorld(FIXTURE_DIST, { creditMicro: 10_000_000, env: { SVC_STORAGE: redis.url(0) } });
  const b = await testRuntime(FIXTURE_DIST, { SVC_STORAGE: redis.url(0) });
  other = await b.listen(0);
  const plan = (await w.call('/proxy/people.email.verify', { email: 'plan@acme.com' }, { 'x-svc-route-dry-run': '1' })).body.plan as Array<{
    endpoint_id: string;
  }>;
  slow = `latency500ms-${plan[0].endpoint_id.split('.')[0]}`;
});
afterAll(async () => {
  await other?.close();
  await w?.close();
  await redis?.stop();
});

const stop = (base: string, batchId: string, token = w.token) =>
  fetch(`${base}/proxy/people.email.verify/batch/${batchId}/stop`, { method: 'POST', headers: { 'x-svc-token': token } });

describe('asking a batch to stop', () => {
  it('through another instance: the rows in flight are answered, no other row starts, and what ran is what was charged', async () => {
    const rows = Array.from({ length: 30 }, (_, i) => ({ email: `${slow}.stop${i}@acme.com` }));
    const before = await chargesByCall(w);
    const r = await fetch(`${w.url}/proxy/people.email.verify/batch`, {
      method: 'POST',
      body: ndjson(rows),
      headers: { 'x-svc-token': w.token, 'content-type': 'application/x-ndjson', 'x-svc-batch-concurrency': '3' },
    });
    const batchId = r.headers.get('x-svc-call-id')!;
    const seen: Array<Record<string, any>> = [];
    for await (const line of lines(r.body!)) {
      seen.push(line);
      if (seen.length === 1) {
        const asked = await stop(other.url, batchId);
        expect(asked.status).toBe(202);
        expect(await asked.json()).toMatchObject({ batch_id: batchId });
      }
    }
    const stopping = seen.find((l) => l.event === 'stopping')!;
    expect(stopping.in_flight.length).toBeGreaterThan(0);
    const summary = seen.at(-1)!;
    expect(summary).toMatchObject({ event: 'summary', stopped: 'asked' });
    const answered = seen.filter((l) => l.status === 200);
    // the rows in flight at the stop were answered after it, and no row started after it
    const after = seen
      .slice(seen.indexOf(stopping) + 1)
      .filter((l) => l.status === 200)
      .map((l) => l.id);
    expect(after.sort()).toEqual([...stopping.in_flight].sort());
    expect(answered.length).toBeLessThan(rows.length);
    expect(summary.hits).toBe(answered.length);
    // every charge is an answered row's, and the sandbox billed exactly those calls
    const charged = [...(await chargesByCall(w)).entries()].filter(([id]) => !before.has(id));
    expect(new Set(charged.map(([id]) => id))).toEqual(new Set(answered.map((l) => l._svc.call_id)));
    expect(charged.reduce((n, [, micro]) => n + micro, 0)).toBe(summary.cost_micro);
    await new Promise((resolve) => setTimeout(resolve, 1_000)); // longer than a row: one started late would show
    expect([...(await chargesByCall(w)).keys()].filter((id) => !before.has(id))).toHaveLength(charged.length);
  }, 60_000);

  it("another team's ask does not stop it, and an id that is no batch id is a 422", async () => {
    const { token } = (await w.ctx.state.createTeam('someone else', 1_000_000))!;
    const rows = Array.from({ length: 4 }, (_, i) => ({ email: `${slow}.theirs${i}@acme.com` }));
    const r = await fetch(`${w.url}/proxy/people.email.verify/batch`, {
      method: 'POST',
      body: ndjson(rows),
      headers: { 'x-svc-token': w.token, 'content-type': 'application/x-ndjson', 'x-svc-batch-concurrency': '1' },
    });
    expect((await stop(w.url, r.headers.get('x-svc-call-id')!, token)).status).toBe(202);
    const seen: Array<Record<string, any>> = [];
    for await (const line of lines(r.body!)) seen.push(line);
    expect(seen.at(-1)).toMatchObject({ event: 'summary', hits: 4 });
    expect(seen.at(-1)!.stopped).toBeUndefined();
    const bad = await stop(w.url, 'call_nope');
    expect(bad.status).toBe(422);
    expect((await bad.json()).detail).toMatch(/not a batch id/);
  }, 60_000);
});
