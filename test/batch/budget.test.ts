// The batch budget against the real sandbox on loopback, without faults: a budget smaller than a
// row's worst case still runs rows, each within what is left, and skips only once less than the
// cheapest check is left.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { FIXTURE_DIST } from '../helpers/paths.ts';
import { routedWorld, type RoutedWorld } from '../helpers/routed.ts';
import { ndjson, readLines } from '../helpers/ndjson.ts';

const CREDIT = 10_000_000;
/** the fixture's cheapest email check (checkco, per call) */
const CHECK_MICRO = 1_000;
let w: RoutedWorld;

beforeAll(async () => {
  w = await routedWorld(FIXTURE_DIST, { creditMicro: CREDIT });
});
afterAll(() => w.close());

const billed = async () => Object.values(await w.billing()).reduce((n, b) => n + b.billed_micro, 0);

const batch = async (maxCost: string, n: number) => {
  const subjects = Array.from({ length: n }, (_, i) => ({ email: `small-budget-${maxCost}-${i}@acme.com` }));
  const r = await fetch(`${w.url}/proxy/people.email.verify/batch`, {
    method: 'POST',
    body: ndjson(subjects),
    headers: { 'x-svc-token': w.token, 'content-type': 'application/x-ndjson', 'x-svc-batch-max-cost': maxCost },
  });
  expect(r.status).toBe(200);
  const lines = await readLines(r);
  return { summary: lines.pop()!, rows: lines };
};

it("a budget below a row's worst case runs rows within what is left, and skips once less than a check is left", async () => {
  w.sandbox.reset();
  const before = await w.ctx.state.balance(w.teamId);
  // a row's worst case is the whole waterfall (8,000 + 1,000 micro-USD), far above the budget
  const { summary, rows } = await batch('0.002', 3);
  expect(summary.rows).toBe(3);
  expect(summary.cost_micro).toBeGreaterThan(0);
  expect(summary.cost_micro).toBeLessThanOrEqual(2_000);
  // skipped only once what was left could not pay for one more check
  expect(summary.cost_micro).toBeGreaterThan(2_000 - CHECK_MICRO);
  const ran = rows.filter((l) => l._svc);
  expect(ran.length).toBeGreaterThan(0);
  expect(summary.skipped).toBe(3 - ran.length);
  // each row ran within what it could reserve: the dearer check was skipped for the ceiling
  for (const l of ran) expect(l._svc.tried).toContainEqual(expect.objectContaining({ outcome: 'skipped', reason: 'over_ceiling' }));
  expect(before - (await w.ctx.state.balance(w.teamId))).toBe(summary.cost_micro);
  expect(await billed()).toBe(summary.cost_micro);
});

it('a budget of less than the cheapest check skips every row at no charge', async () => {
  w.sandbox.reset();
  const { summary, rows } = await batch('0.0009', 2);
  expect(summary).toMatchObject({ rows: 2, skipped: 2, cost_micro: 0 });
  for (const l of rows) expect(l).toEqual({ id: expect.any(Number), skipped: 'budget' });
  expect(await billed()).toBe(0);
});
