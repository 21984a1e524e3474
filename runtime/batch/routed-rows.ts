// A batch row as a routed call, made through the router's own entry: the route headers apply to
// every row, and its charges are in the ledger under its own call_id.
import type { Router } from '../router/router.ts';
import type { RouteOptions } from '../router/options.ts';
import type { Team } from '../state/index.ts';
import { cheapestAttemptMicro } from '../router/plan.ts';
import type { RowRunner, RowSvc } from './run.ts';

export function routedRows(router: Pick<Router, 'call'>, team: Team, capability: string, options: RouteOptions): RowRunner {
  return {
    dryRun: options.dryRun,
    async call(subject, callId, ceilingMicro, gone) {
      const rowOptions = ceilingMicro === undefined ? options : { ...options, maxCostMicro: ceilingMicro };
      const answer = await router.call(team, capability, subject, rowOptions, callId, gone);
      // the answer without `raw` (the provider's own bytes stay out of a list); a dry run's plan as it is
      const { raw: _raw, ...body } = JSON.parse(answer.text) as { raw?: unknown; output?: unknown; _svc?: RowSvc };
      // a row has no headers: the filters its server ignored (X-Svc-Ignored-Filters) travel in its _svc
      const ignored = answer.headers['x-svc-ignored-filters'];
      if (ignored && body._svc) body._svc.ignored_filters = ignored.split(',');
      return { status: answer.status, ...body };
    },
    // the whole plan's worst case, never above the row's own ceiling, and its cheapest first attempt
    async needs(subject) {
      const dry = await router.call(team, capability, subject, { ...options, dryRun: true });
      const { plan, worst_cost_micro } = JSON.parse(dry.text) as { plan: Array<{ worst_cost_micro: number }>; worst_cost_micro: number };
      return { least: cheapestAttemptMicro(plan), worst: Math.min(options.maxCostMicro, worst_cost_micro) };
    },
  };
}
