// The order shown is the order tried: GET /catalog/capabilities/{capability}/plan, and `svc show` of a
// routed entry, answer the children in the order a dry run of a real call tries them, for a caller
// without own keys and for a team with one, with whether each bills a miss.
import { describe, expect, it } from 'vitest';
import { FIXTURE_DIST } from '../helpers/paths.ts';
import { routedWorldPerSuite, type RoutedWorld } from '../helpers/routed.ts';
import { svcCli } from '../helpers/cli.ts';
import type { TriedOrder } from '../../language/dist-types.ts';

let w: RoutedWorld;
routedWorldPerSuite(FIXTURE_DIST, (made) => (w = made));

const dryOrder = async (token: string) => {
  const dry = await w.call('/proxy/people.email.verify', { email: 'jane@acme.com' }, { 'X-Svc-Route-Dry-Run': '1' }, token);
  expect(dry.status).toBe(200);
  return (dry.body.plan as Array<{ endpoint_id: string; key: string }>).map((a) => [a.endpoint_id, a.key]);
};
const shown = async (headers: Record<string, string> = {}) => {
  const res = await fetch(`${w.url}/catalog/capabilities/people.email.verify/plan`, { headers });
  expect(res.status).toBe(200);
  return (await res.json()) as TriedOrder;
};

describe('the order shown is the order tried', () => {
  it("without own keys: the dry run's order, children whose misses are free first", async () => {
    const fresh = (await w.ctx.state.createTeam('no keys team', 1_000_000))!;
    const o = await shown();
    expect(o.planned_for).toBe('a team without own keys');
    expect(o.order.length).toBeGreaterThan(1);
    expect(o.order.map((a) => [a.endpoint_id, a.key])).toEqual(await dryOrder(fresh.token));
    // every child that may bill a miss comes after every one that does not
    const bills = o.order.map((a) => a.bills_miss);
    expect(bills).toEqual([...bills].sort((a, b) => Number(a) - Number(b)));
  });

  it("with an own key: the team's dry run order, its own-key child first", async () => {
    const keyed = (await w.ctx.state.createTeam('own key team', 1_000_000))!;
    const last = (await shown()).order.at(-1)!;
    await w.ctx.state.setOwnKey(keyed.team.id, last.provider, 'own-key-of-the-team');
    const o = await shown({ 'x-svc-token': keyed.token });
    expect(o.planned_for).toBe('your team');
    expect(o.order[0]).toMatchObject({ endpoint_id: last.endpoint_id, key: 'own' });
    expect(o.order.map((a) => [a.endpoint_id, a.key])).toEqual(await dryOrder(keyed.token));
  });

  it('an unknown capability is a 404 sentence; bad credentials a 401', async () => {
    const missing = await fetch(`${w.url}/catalog/capabilities/people.nothing/plan`);
    expect([missing.status, ((await missing.json()) as { detail: string }).detail]).toEqual([
      404,
      "No routed capability 'people.nothing'. GET /catalog/search?q=… finds one.",
    ]);
    expect((await fetch(`${w.url}/catalog/capabilities/people.email.verify/plan`, { headers: { 'x-svc-token': 'svc_wrong' } })).status).toBe(401);
  });

  it('svc show of a routed entry prints the order tried, with the bills-a-miss column', async () => {
    const text = (await svcCli(['show', 'svc.people.email.verify'], { SVC_URL: w.url })).stdout;
    expect(text).toContain('tried in this order until one hits, for a team without own keys');
    const printed = [...text.matchAll(/^(\d+)\s+(\S+)\s+platform\s+(yes|no)\s+\$/gm)].map((m) => m[2]);
    expect(printed).toEqual((await shown()).order.map((a) => a.endpoint_id));
  });
});
