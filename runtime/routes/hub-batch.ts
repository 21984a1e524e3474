// POST /hub/tools/{tool_id}/batch: many runs of one tool, as NDJSON in and out, with the same
// budget, concurrency, stop and summary as a capability's batch (runtime/routes/batch-door.ts); each row
// is one run (runtime/routes/hub-batch-rows.ts).
import { route } from '../http/declared-route.ts';
import { BATCH_ANSWERS, BATCH_HEADERS, batchAnswer, STOP_ANSWERS, STOP_SUMMARY, stopAnswer } from './batch-door.ts';
import { toolRows } from './hub-batch-rows.ts';
import { runOptions } from '../hub/run-options.ts';
import { hubOf } from '../hub/service.ts';
import type { Team } from '../state/index.ts';
import { ref, RUN_HEADERS } from './hub.ts';

const hub = { tags: ['hub'], auth: 'team' } as const;

export const hubBatchRoutes = [
  route<{ team: Team; callId: string }>({
    ...hub,
    method: 'POST',
    path: '/hub/tools/{tool_id}/batch',
    // the batch's id, named by every answer (a refusal of the whole batch too) and by its stop
    paid: true,
    operationId: 'hubBatch',
    summary:
      'Many runs of a tool: one NDJSON line per run, {input, id?}, answered as NDJSON rows as they finish, then a summary line. Every row runs the version serving when the batch starts (the newest live, or @N) and is charged as a single run: its steps plus the price, which the maker earns',
    request: {
      stream: 'application/x-ndjson',
      about: { tool_id: 'tool id, optionally @N' },
      // the run headers apply to every row
      headers: { ...RUN_HEADERS, ...BATCH_HEADERS },
    },
    responses: {
      200: {
        description:
          "NDJSON: {id, status, output, _svc} per row (_svc as a run's, with served_by tool_id@N when the run completed), then {event: summary, rows, hits, misses, errors, skipped, cost_micro}",
        type: 'application/x-ndjson',
        schema: { type: 'string' },
      },
      ...BATCH_ANSWERS,
      404: 'Unknown, or not visible to you',
      409: 'No live version',
      410: 'Retired tool, or a pin past its 30 days',
    },
    handle: async ({ ctx, event, team, callId }) => {
      const wanted = ref(event);
      const { version } = await hubOf(ctx).serving(team, wanted);
      const rows = toolRows(hubOf(ctx), team, { id: wanted.id, n: version.version }, runOptions(event.req.headers));
      return batchAnswer(ctx, event, team, rows, callId);
    },
  }),
  route<{ team: Team; path: { batch_id: string } }>({
    ...hub,
    method: 'POST',
    path: '/hub/tools/{tool_id}/batch/{batch_id}/stop',
    operationId: 'hubBatchStop',
    summary: STOP_SUMMARY,
    request: { about: { tool_id: 'tool id, optionally @N', batch_id: "the batch's X-Svc-Call-Id" } },
    responses: { ...STOP_ANSWERS, 404: 'Unknown, or not visible to you' },
    handle: async ({ ctx, event, team, path: { batch_id } }) => {
      await hubOf(ctx).visible(team, ref(event).id);
      return stopAnswer(ctx, team, batch_id);
    },
  }),
];
