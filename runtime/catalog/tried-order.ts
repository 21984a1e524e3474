// The order a routed capability's children are tried in for one viewer: the router's own dry-run
// planner (runtime/router/plan.ts) asked for a call that fills every identity field, so the order
// shown can never drift from the order run. A call sending one identity set tries the children that
// take it in this same order (the order reads no field values).
import type { DistCatalog } from './dist.ts';
import type { Router } from '../router/router.ts';
import type { RouteOptions } from '../router/options.ts';
import type { Team } from '../state/index.ts';
import { missMayCost } from '../../language/prices.ts';
import type { TriedOrder } from '../../language/dist-types.ts';

/** stands for a caller who sent no credentials: no own keys, nothing cooling */
const NO_TEAM: Team = Object.freeze({ id: 0, slug: '', name: 'no team', created_at: '' });

/** `ctx`: the runtime's context, or any catalog and router */
export async function triedOrder(
  ctx: { catalog: Pick<DistCatalog, 'runtime'>; router: Pick<Router, 'plan'> },
  capability: string,
  team: Team | null,
  options: RouteOptions,
): Promise<TriedOrder> {
  const { capabilities, operations } = ctx.catalog.runtime;
  // each present field stands for a value: the planner checks presence, never the value
  const body = Object.fromEntries(Object.keys(capabilities[capability].fields).map((f) => [f, 'x']));
  const dry = await ctx.router.plan(team ?? NO_TEAM, capability, body, options);
  return {
    capability,
    planned_for: team ? 'your team' : 'a team without own keys',
    order: dry.plan.map((a) => ({ ...a, provider: operations[a.endpoint_id].provider, bills_miss: missMayCost(operations[a.endpoint_id]) })),
    excluded: dry.excluded,
  };
}
