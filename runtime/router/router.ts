// The router as the routes see it: body validation per capability (compiled once), merging of
// identical concurrent calls, the executor with its shared health, and the pass-through of one
// operation; money is spent through the context's Spending (runtime/money/spending.ts, spend()), shared
// with every other kind of call.
import type { Observed, RuntimeCatalog } from '../../language/types.ts';
import type { Config } from '../config/config.ts';
import type { State, Team } from '../state/index.ts';
import { bodyValidator } from '../util/validate.ts';
import { routeCall } from './waterfall.ts';
import type { Gone, RouteOutcome, RouterDeps } from './outcome.ts';
import { Health } from './health.ts';
import { platformKey } from '../../language/provider-auth.ts';
import type { Spending } from '../money/spending.ts';
import { CallMerger, mergeKey } from './identical-calls.ts';
import { respond, type RoutedResponse } from './respond.ts';
import { capabilityBodySchema } from '../../language/body-schema.ts';
import { refuseOutOfScope, type RouteOptions, type RouteScope } from './options.ts';
import { newCallId } from '../util/call-id.ts';
import { passThrough, type PassThroughRequest } from './pass-through.ts';
import { Remembered } from '../../language/remember.ts';
import type { PlainAnswer } from '../util/fail.ts';

export interface Router {
  deps: RouterDeps;
  isCapability(name: string): boolean;
  /**
   * `callId`: the id the call's answer and ledger rows carry; a hub run gives its own, so its steps'
   * rows carry the run's. `gone`: whether the caller has left (no further child is tried for it).
   */
  call(team: Team, capability: string, body: unknown, options: RouteOptions, callId?: string, gone?: Gone): Promise<RoutedResponse>;
  /**
   * A dry run's plan with no body check: what a hub run's dry run asks of a step whose fields later
   * steps fill (each present field stands for a value); refusals as the call's own.
   */
  plan(team: Team, capability: string, body: Record<string, unknown>, options: RouteOptions): Promise<DryPlan>;
  /** one catalog operation as its provider defines it (pass-through.ts); refusals and provider failures are thrown */
  passThrough(team: Team, req: PassThroughRequest, callId: string): Promise<PlainAnswer>;
}

/** a routed dry run's answer */
export interface DryPlan {
  plan: Array<{ endpoint_id: string; key: 'own' | 'platform'; worst_cost_micro: number }>;
  excluded: Array<{ endpoint_id: string; reason: string }>;
  worst_cost_micro: number;
  /** the team's stored keys the plan sets aside (their provider refused them lately), each with when it is tried again */
  own_keys_set_aside: Array<{ provider: string; until: string }>;
}

/** What the router is made from, all given: nothing is reached for from outside. */
export interface RouterParts {
  runtime: RuntimeCatalog;
  state: State;
  /** an endpoint's measured behaviour (the planner orders by it) */
  observed: (endpointId: string) => Observed | null;
  config: Config;
  spending: Spending;
}

export function createRouter({ runtime, state, observed, config, spending }: RouterParts): Router {
  // the environment is read once into the config, so which providers have a platform key is fixed
  const platformKeyed = new Set(Object.keys(runtime.providers).filter((p) => platformKey(runtime.providers[p], config.env) !== null));
  const deps: RouterDeps = {
    runtime,
    env: config.env,
    state,
    health: new Health(Date.now, state.atomics),
    spending,
    observed,
    hasPlatformKey: (p) => platformKeyed.has(p),
    attemptTimeoutMs: config.attemptTimeoutMs,
    maxAnswerBytes: config.maxAnswerBytes,
    pollIntervalMaxMs: config.pollIntervalMaxMs,
  };
  const validators = new Map(
    Object.entries(runtime.capabilities).map(([name, cap]) => [name, bodyValidator<Record<string, unknown>>(capabilityBodySchema(cap))]),
  );
  const providersOf = (name: string | undefined) => new Set((name ? runtime.capabilities[name].children : []).map((id) => runtime.operations[id].provider));
  // made by a capability's first call, which reads (and so parses) its children's operations then
  const scopes = new Remembered<RouteScope>(validators.size, (name) => {
    const verify = runtime.capabilities[name].verify;
    return { capability: name, providers: providersOf(name), verifiers: providersOf(verify?.capability), verifiable: Boolean(verify) };
  });
  const merger = new CallMerger<RoutedResponse>();
  /** a caller that never leaves early: a hub step (its run decides between steps) or an in-process caller */
  const stays: Gone = () => false;
  return {
    deps,
    isCapability: (name) => validators.has(name),
    // Not async: an async function answering another's promise costs two more turns of the microtask
    // queue per call; a refusal is still a rejection, never a throw.
    call(team, capability, rawBody, options, callId, gone = stays) {
      let body: Record<string, unknown>;
      try {
        body = validators.get(capability)!(rawBody);
        refuseOutOfScope(options, scopes.get(capability));
      } catch (e) {
        return Promise.reject(e);
      }
      const id = callId ?? newCallId();
      const answer = (outcome: RouteOutcome) => respond(outcome, deps.runtime.capabilities[capability].identity, capability, id);
      const work = (allGone: Gone) => routeCall(deps, { team, capability, body, options, callId: id, gone: allGone });
      if (options.dryRun) return work(gone).then(answer);
      return merger.run(mergeKey(team.id, capability, body, options), gone, work, answer, sharedAnswer);
    },
    plan: (team, capability, body, options) =>
      routeCall(deps, { team, capability, body, options: { ...options, dryRun: true }, callId: '', gone: stays }).then(
        (o) => JSON.parse(respond(o, runtime.capabilities[capability].identity, capability, '').text) as DryPlan,
      ),
    passThrough: (team, req, callId) => passThrough(deps, team, req, callId),
  };
}

/**
 * What a caller who joined an identical call in flight is answered: the same answer, charged once,
 * to the first caller. So `X-Svc-Cost-Micro` and `_svc.cost_micro` say 0 here and `_svc.shared` says
 * why; `tried` still shows what the shared attempts cost. Headers summed over calls equal the ledger.
 * The call id stays the first caller's: it names the one waterfall that ran and its ledger rows.
 */
function sharedAnswer(first: RoutedResponse): RoutedResponse {
  const body = JSON.parse(first.text) as { _svc?: { cost_micro: number; shared?: boolean } };
  if (!body._svc) return first;
  body._svc.cost_micro = 0;
  body._svc.shared = true;
  return { status: first.status, headers: { ...first.headers, 'x-svc-cost-micro': '0' }, text: JSON.stringify(body) };
}
