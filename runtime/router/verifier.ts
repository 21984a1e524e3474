// A verification as planned: the route options a verifier runs under (what is left of the call's
// ceiling and deadline), and what one may cost at worst, for a dry run's answer.
import { prepareCall } from '../../language/prepare-call.ts';
import { plan } from './plan.ts';
import type { RouteOptions } from './options.ts';
import type { Cap, RouteCall, RouteOutcome, RouterDeps } from './outcome.ts';

/** A verification's route options: the call's exclusions, what is left of its ceiling and deadline. */
export function verifierOptions(o: RouteOptions, budgetMicro: number, timeoutMs: number): RouteOptions {
  return {
    ...o,
    maxCostMicro: Math.max(0, budgetMicro),
    verify: false,
    dryRun: false,
    waterfall: true,
    prefer: [],
    strictFilters: false,
    timeoutMs: Math.max(1, timeoutMs),
  };
}

export function dryRun(deps: RouterDeps, call: RouteCall, cap: Cap, ownKeys: ReadonlySet<string>, base: Omit<RouteOutcome, 'kind'>): RouteOutcome {
  return {
    ...base,
    kind: 'dry_run',
    ceiling_micro: call.options.maxCostMicro,
    verifier: call.options.verify && cap.verify ? verifierWorst(deps, call, cap, ownKeys) : undefined,
    // a stored key the plan does not use, and why: its provider refused it lately
    own_keys_set_aside: deps.health.setAside(
      call.team.id,
      new Set(cap.children.map((id) => deps.runtime.operations[id].provider).filter((p) => ownKeys.has(p))),
    ),
  };
}

/**
 * The most one verification of this call may cost: the verifier's whole waterfall, planned as a hit
 * would fill it (its input fields present) under the call's own exclusions and ceiling.
 */
function verifierWorst(deps: RouterDeps, call: RouteCall, cap: Cap, ownKeys: ReadonlySet<string>): { capability: string; worst_cost_micro: number } {
  const v = cap.verify!;
  const verifier = deps.runtime.capabilities[v.capability] as Cap;
  const p = plan({
    capability: verifier,
    operations: deps.runtime.operations,
    fields: Object.fromEntries(Object.keys(v.with).map((f) => [f, f])),
    sentFilters: [],
    limit: prepareCall(verifier, {}).limit,
    options: verifierOptions(call.options, call.options.maxCostMicro, call.options.timeoutMs),
    ownKeys,
    teamId: call.team.id,
    hasPlatformKey: deps.hasPlatformKey,
    observed: deps.observed,
    health: deps.health,
  });
  return { capability: v.capability, worst_cost_micro: p.attempts.reduce((n, a) => n + a.worst_cost_micro, 0) };
}
