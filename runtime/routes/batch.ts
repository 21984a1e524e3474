// POST {prefix}/<capability>/batch: a list of subjects as NDJSON, answered as an NDJSON stream of
// rows as they finish and one summary line. The logic lives in runtime/batch/.
import { route } from '../http/declared-route.ts';
import { fail } from '../util/fail.ts';
import { parseRouteOptions } from '../router/options.ts';
import { BATCH_ANSWERS, BATCH_HEADERS, batchAnswer, STOP_ANSWERS, STOP_SUMMARY, stopAnswer } from './batch-door.ts';
import { routedRows } from '../batch/routed-rows.ts';
import type { AppContext } from '../context/context.ts';
import type { Team } from '../state/index.ts';
import { routeHeaders } from '../../language/route-options.ts';
import { passThroughAnswer } from './proxy.ts';

const routed = (ctx: AppContext, capability: string) => {
  if (!ctx.router.isCapability(capability)) fail(404, `No routed capability '${capability}'. GET /catalog/platforms lists them.`);
};

export const batchRoutes = [
  route<{ team: Team; path: { capability: string }; callId: string }>({
    method: 'POST',
    path: '{proxy}/{capability}/batch',
    // the batch's id, named by every answer (a refusal of the whole batch too) and by its stop
    paid: true,
    tags: ['routed'],
    auth: 'team',
    operationId: 'batch',
    summary: 'Many subjects of one routed capability: one NDJSON line per subject (optional id), answered as NDJSON rows as they finish, then a summary line',
    request: {
      stream: 'application/x-ndjson',
      // the route headers apply to every row
      headers: { ...routeHeaders(), ...BATCH_HEADERS },
    },
    responses: {
      200: {
        description: 'NDJSON: {id, status, output, _svc} per row, then {event: summary, rows, hits, misses, errors, skipped, cost_micro}',
        type: 'application/x-ndjson',
        schema: { type: 'string' },
      },
      ...BATCH_ANSWERS,
      404: 'No such capability',
    },
    handle: ({ ctx, event, team, path: { capability }, callId }) => {
      // a provider's own operation at /batch (Emailable's bulk verification) is a pass-through call
      if (!ctx.router.isCapability(capability) && Object.hasOwn(ctx.catalog.runtime.providers, capability))
        return passThroughAnswer(ctx, event, () => team, capability, callId);
      routed(ctx, capability);
      return batchAnswer(ctx, event, team, routedRows(ctx.router, team, capability, parseRouteOptions(event.req.headers)), callId);
    },
  }),
  route<{ team: Team; path: { capability: string; batch_id: string } }>({
    method: 'POST',
    path: '{proxy}/{capability}/batch/{batch_id}/stop',
    tags: ['routed'],
    auth: 'team',
    operationId: 'batchStop',
    summary: STOP_SUMMARY,
    responses: { ...STOP_ANSWERS, 404: 'No such capability' },
    handle: ({ ctx, team, path: { capability, batch_id } }) => {
      routed(ctx, capability);
      return stopAnswer(ctx, team, batch_id);
    },
  }),
];
