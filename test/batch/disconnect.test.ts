// A client that goes away stops the batch: rows not started are never called, a row in flight tries
// no further child, and what ran is in the ledger, equal to what the sandbox billed.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { FIXTURE_DIST } from '../helpers/paths.ts';
import { routedWorld, type RoutedWorld } from '../helpers/routed.ts';
import { ndjson } from '../helpers/ndjson.ts';

const CREDIT = 10_000_000;
let w: RoutedWorld;

beforeAll(async () => {
  w = await routedWorld(FIXTURE_DIST, { creditMicro: CREDIT, env: { SVC_ATTEMPT_TIMEOUT_MS: '300' } });
});
afterAll(() => w.close());

const settle = () => new Promise((r) => setTimeout(r, 800)); // longer than one row (one stalled attempt, then a hit)

it('stops starting rows when the client disconnects; what ran is charged exactly', async () => {
  // every row waits out a stalled first provider, then the second one answers
  const rows = Array.from({ length: 40 }, (_, i) => ({ email: `slow-zerobounce-${i}@acme.com` }));
  const abort = new AbortController();
  const r = await fetch(`${w.url}/proxy/people.email.verify/batch`, {
    method: 'POST',
    signal: abort.signal,
    body: ndjson(rows),
    headers: { 'x-svc-token': w.token, 'content-type': 'application/x-ndjson', 'x-svc-batch-concurrency': '1' },
  });
  const reader = r.body!.getReader();
  const first = await reader.read();
  expect(new TextDecoder().decode(first.value)).toContain('"status":200');
  const served = async () => (await w.billing())['checkco.people.email.verify']?.calls ?? 0;
  const before = await served();
  abort.abort();
  await settle();
  const ran = await served();
  await settle();
  // nothing more started after the disconnect, and far from every row ran
  expect(await served()).toBe(ran);
  expect(ran).toBeLessThan(5);
  // the row in flight then ran its stalled first attempt out, and no second child for a client gone
  expect(ran).toBe(before);
  const billed = Object.values(await w.billing()).reduce((n, b) => n + b.billed_micro, 0);
  expect(CREDIT - (await w.ctx.state.balance(w.teamId))).toBe(billed);
  expect(billed).toBeGreaterThan(0);
});
