// The router as the routes see it: body validation per capability (compiled once), merging of
// identical concurrent calls, and the executor with its shared health and reservations.
import { randomUUID } from 'node:crypto';
import type { RuntimeCatalog } from '../../build/types.ts';
import type { Config } from '../config.ts';
import type { LiveData } from '../live.ts';
import type { State, Team } from '../state/index.ts';
import { bodyValidator } from '../validate.ts';
import { routeCall, type RouterDeps } from './execute.ts';
import { Health } from './health.ts';
import { Reservations } from './reservations.ts';
import { CallMerger, canonical } from './merge.ts';
import { respond, type RoutedResponse } from './respond.ts';
import type { RouteOptions } from './options.ts';

const JSON_TYPE: Record<string, object> = {
  str: { type: 'string', maxLength: 2000 }, url: { type: 'string', maxLength: 2000 }, int: { type: 'integer' }, number: { type: 'number' },
  bool: { type: 'boolean' }, list: { type: 'array', maxItems: 100, items: { type: 'string' } }, object: { type: 'object' },
};

export interface Router {
  deps: RouterDeps;
  isCapability(name: string): boolean;
  call(team: Team, capability: string, body: unknown, options: RouteOptions): Promise<RoutedResponse>;
}

export function createRouter(runtime: RuntimeCatalog, state: State, live: LiveData, config: Config): Router {
  const deps: RouterDeps = {
    runtime, env: config.env, state, health: new Health(), reservations: new Reservations(), observed: (id) => live.observed(id),
    attemptTimeoutMs: Number(config.env.SVC_ATTEMPT_TIMEOUT_MS ?? 15_000),
    pollIntervalMaxMs: config.env.SVC_POLL_INTERVAL_MAX_MS ? Number(config.env.SVC_POLL_INTERVAL_MAX_MS) : null,
  };
  const validators = new Map(Object.entries(runtime.capabilities).map(([name, cap]) => {
    const properties: Record<string, object> = {};
    for (const [f, t] of Object.entries(cap.fields)) properties[f] = JSON_TYPE[t];
    for (const [f, d] of Object.entries(cap.filters ?? {})) {
      properties[f] = { ...JSON_TYPE[d.type], ...(d.min !== undefined ? { minimum: d.min } : {}), ...(d.max !== undefined ? { maximum: d.max } : {}) };
    }
    return [name, bodyValidator<Record<string, unknown>>({ type: 'object', additionalProperties: false, properties })];
  }));
  const merger = new CallMerger<RoutedResponse>();
  return {
    deps,
    isCapability: (name) => validators.has(name),
    async call(team, capability, rawBody, options) {
      const body = validators.get(capability)!(rawBody);
      const cap = runtime.capabilities[capability];
      const run = () => routeCall(deps, { team, capability, body, options, callId: randomUUID() }).then((o) => respond(o, cap.identity, capability));
      return options.dryRun ? run() : merger.run(canonical([team.id, capability, body, options]), run);
    },
  };
}
