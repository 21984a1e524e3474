// The planner over the real catalog's capabilities (3 to 33 children), call after call with what
// moves a plan drawn at random: own keys, platform keys, Prefer, exclusions, measured hit rates, the
// row limit, open circuits. Each plan is held to the rule as the docs state it, whatever the planner
// works out once per capability to be fast.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Observed, RuntimeCatalog } from '../../language/types.ts';
import { plan, type PlanInput, type PlannedAttempt } from '../../runtime/router/plan.ts';
import { parseRouteOptions } from '../../runtime/router/options.ts';
import { missMayCost, worstCostMicro } from '../../language/prices.ts';
import { REAL_DIST } from '../helpers/paths.ts';

const runtime = JSON.parse(readFileSync(join(REAL_DIST, 'catalog', 'runtime.json'), 'utf8')) as RuntimeCatalog;

/** a small seeded generator, so a failure names a draw that can be run again */
function draws(seed: number) {
  let s = seed;
  const next = () => (s = (Math.imul(s, 1_103_515_245) + 12_345) >>> 0) / 2 ** 32;
  return { chance: (p: number) => next() < p, pick: <T>(xs: T[]) => xs[Math.floor(next() * xs.length)], next };
}

/** a before b by the documented order: own key, Prefer, free misses, expected cost per hit, then the ids */
function inRuleOrder(a: PlannedAttempt, b: PlannedAttempt, prefer: string[]): boolean {
  const rank = (p: string) => (prefer.includes(p) ? prefer.indexOf(p) : prefer.length);
  const keys = (x: PlannedAttempt) => [x.key === 'own' ? 0 : 1, rank(x.provider), x.bills_miss ? 1 : 0, x.expected_micro];
  const [ka, kb] = [keys(a), keys(b)];
  for (let i = 0; i < ka.length; i++) if (ka[i] !== kb[i]) return ka[i] < kb[i];
  return a.endpoint_id.localeCompare(b.endpoint_id) < 0;
}

describe('the plan over the real catalog', () => {
  it('puts every child once, planned in the documented order or left out for the first reason that holds', () => {
    let plans = 0;
    for (const [name, cap] of Object.entries(runtime.capabilities)) {
      const providers = [...new Set(cap.children.map((id) => runtime.operations[id].provider))];
      for (let seed = 1; seed <= 40; seed++) {
        const d = draws(seed * 7919 + name.length);
        const own = new Set(providers.filter(() => d.chance(0.15)));
        const keyed = new Set(providers.filter(() => d.chance(0.7)));
        const prefer = d.chance(0.3) ? [d.pick(providers), d.pick(providers)] : [];
        const exclude = d.chance(0.2) ? [d.pick(providers)] : [];
        const observed = new Map<string, Observed>(
          cap.children
            .filter(() => d.chance(0.3))
            .map((id) => [id, { decided: 20 + Math.floor(d.next() * 50), hit_rate: d.pick([0, 0.25, 0.5, 1]) } as Observed]),
        );
        const open = new Set(cap.children.filter(() => d.chance(0.05)));
        const headers = new Headers({
          ...(prefer.length ? { 'x-svc-route-prefer': prefer.join(',') } : {}),
          ...(exclude.length ? { 'x-svc-route-exclude': exclude.join(',') } : {}),
        });
        const options = parseRouteOptions(headers);
        const limit = d.pick([1, 5, 25]);
        // the identity fields of one of the children's sets, so most children can take the call
        const set = d.pick(runtime.operations[d.pick(cap.children)].accepts ?? [[]]);
        const fields = Object.fromEntries(set.map((f) => [f, 'x']));
        const input: PlanInput = {
          capability: cap,
          operations: runtime.operations,
          fields,
          sentFilters: [],
          limit,
          options,
          ownKeys: own,
          teamId: 1,
          hasPlatformKey: (p) => keyed.has(p),
          observed: (id) => observed.get(id) ?? null,
          health: { circuitOpen: (id) => open.has(id), ownKeyCooling: () => false },
        };
        const p = plan(input);
        plans++;
        const where = `${name}, draw ${seed}`;
        expect([...p.attempts.map((a) => a.endpoint_id), ...p.excluded.map((e) => e.endpoint_id)].sort(), where).toEqual([...cap.children].sort());
        expect(
          p.excluded.map((e) => e.endpoint_id),
          where,
        ).toEqual(cap.children.filter((id) => p.excluded.some((e) => e.endpoint_id === id)));
        for (let i = 1; i < p.attempts.length; i++)
          expect(
            inRuleOrder(p.attempts[i - 1], p.attempts[i], options.prefer),
            `${where}: ${p.attempts[i - 1].endpoint_id} before ${p.attempts[i].endpoint_id}`,
          ).toBe(true);
        for (const a of p.attempts) {
          const op = runtime.operations[a.endpoint_id];
          expect(a.key, where).toBe(own.has(a.provider) ? 'own' : 'platform');
          expect([a.worst_cost_micro, a.bills_miss], where).toEqual([worstCostMicro(op, limit), missMayCost(op)]);
        }
        for (const e of p.excluded) {
          const op = runtime.operations[e.endpoint_id];
          const identified = (op.accepts ?? []).some((s) => s.every((f) => f in fields));
          const reason = !identified
            ? 'no_identity'
            : exclude.includes(op.provider)
              ? 'excluded'
              : !own.has(op.provider) && !(op.platform_eligible && keyed.has(op.provider))
                ? 'no_key'
                : open.has(e.endpoint_id)
                  ? 'circuit_open'
                  : 'over_ceiling';
          expect(e.reason, `${where}: ${e.endpoint_id}`).toBe(reason);
        }
      }
    }
    expect(plans).toBe(Object.keys(runtime.capabilities).length * 40);
  });
});
