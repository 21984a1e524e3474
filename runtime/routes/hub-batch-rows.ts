// A batch row as one run of a tool: the line is a run's body (`input`, beside the row's id) and is
// checked as one, and the row runs through Hub.run, so it is charged by the run's one spend() path
// (its steps, then the price, which the maker earns) under its own call_id.
import { bodyCheck } from '../http/request-checks.ts';
import * as schemas from '../http/request-schemas.ts';
import { cheapestAttemptMicro } from '../router/plan.ts';
import { newCallId } from '../util/call-id.ts';
import type { RowRunner, RowSvc } from '../batch/run.ts';
import type { Team } from '../state/index.ts';
import type { ToolRef } from '../hub/access.ts';
import type { RunPlan } from '../hub/dry-run.ts';
import type { RunOptions } from '../hub/run-options.ts';
import type { Hub } from '../hub/service.ts';

const checkLine = bodyCheck<{ input: Record<string, unknown> }>(schemas.runBody, 'line');

/** `ref`: the version the batch serves, pinned when the batch started, so every row runs the same one */
export function toolRows(hub: Hub, team: Team, ref: ToolRef & { n: number }, options: RunOptions): RowRunner {
  const run = (subject: Record<string, unknown>, o: RunOptions, callId: string) => hub.run(team, ref, checkLine(subject).input, o, callId);
  return {
    dryRun: options.dryRun,
    async call(subject, callId, ceilingMicro, gone) {
      const answer = await run(subject, { ...options, gone, ...(ceilingMicro === undefined ? {} : { maxCostMicro: ceilingMicro }) }, callId);
      const body = answer.body as { output?: unknown; _svc?: RowSvc };
      // as a routed row's, a tool row's _svc names what served it: the version, when the run completed
      if (body._svc) body._svc.served_by = body._svc.stopped ? null : `${ref.id}@${ref.n}`;
      return { status: answer.status, ...body };
    },
    async needs(subject) {
      const plan = (await run(subject, { ...options, dryRun: true }, newCallId())).body as RunPlan;
      // a run has an output only once each step had at least its cheapest attempt and the price was paid
      const least = plan.steps.reduce((n, s) => n + cheapestAttemptMicro(s.plan), plan.price_micro);
      return { least, worst: Math.min(options.maxCostMicro ?? Number.POSITIVE_INFINITY, plan.worst_cost_micro) };
    },
  };
}
