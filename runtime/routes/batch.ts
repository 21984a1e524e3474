// POST {prefix}/<capability>/batch: a list of subjects as NDJSON, answered as an NDJSON stream of
// rows as they finish and one summary line. The logic lives in runtime/batch/.
import { HTTPResponse, type H3Event } from 'h3';
import type { IncomingMessage } from 'node:http';
import { route } from '../declared-route.ts';
import { fail } from '../errors.ts';
import { readNode } from '../body.ts';
import { parseRouteOptions } from '../router/options.ts';
import { CALL_ID_HEADER, newCallId } from '../util/call-id.ts';
import { MAX_BATCH_BYTES, parseBatch } from '../batch/input.ts';
import { parseBatchLimits } from '../batch/options.ts';
import { runBatch } from '../batch/run.ts';
import { askToStop, stopAsked } from '../batch/stop.ts';
import type { Team } from '../state/index.ts';
import { routeHeaders } from '../../language/route-options.ts';

async function readText(event: H3Event): Promise<string> {
  if (Number(event.req.headers.get('content-length')) > MAX_BATCH_BYTES) fail(413, `A batch body holds at most ${MAX_BATCH_BYTES} bytes; split the list.`);
  const node = (event.req as { runtime?: { node?: { req?: IncomingMessage } } }).runtime?.node?.req;
  const text = node ? await readNode(node, MAX_BATCH_BYTES, (text) => text) : await event.req.text();
  if (Buffer.byteLength(text) > MAX_BATCH_BYTES) fail(413, `A batch body holds at most ${MAX_BATCH_BYTES} bytes; split the list.`);
  return text;
}

export const batchRoutes = [
  route<{ team: Team; path: { capability: string } }>({
    method: 'POST', path: '{proxy}/{capability}/batch', tags: ['routed'], auth: 'team', operationId: 'batch',
    summary: 'Many subjects of one routed capability: one NDJSON line per subject (optional id), answered as NDJSON rows as they finish, then a summary line',
    request: {
      stream: 'application/x-ndjson',
      headers: {
        // the route headers apply to every row
        ...routeHeaders(),
        'X-Svc-Batch-Max-Cost': 'USD the whole batch may cost; each row runs within what is left, and a row whose cheapest attempt no longer fits answers skipped: budget',
        'X-Svc-Batch-Concurrency': 'rows in flight at once, 1 to 32 (default 8)',
      },
    },
    responses: {
      200: { description: 'NDJSON: {id, status, output, _svc} per row, then {event: summary, rows, hits, misses, errors, skipped, cost_micro}', type: 'application/x-ndjson', schema: { type: 'string' } },
      400: 'A line is not a JSON object', 401: 'No or bad credential', 404: 'No such capability', 413: 'More than 10,000 rows or 16 MiB', 422: 'A bad route or batch header',
    },
    handle: async ({ ctx, event, team, path: { capability } }) => {
      if (!ctx.router.isCapability(capability)) fail(404, `No routed capability '${capability}'. GET /catalog/platforms lists them.`);
      const options = parseRouteOptions(event.req.headers);
      const limits = parseBatchLimits(event.req.headers);
      const rows = parseBatch(await readText(event));
      const batchId = newCallId();
      // stops starting rows when the client goes away (the request's signal) or stops reading (cancel)
      const stop = new AbortController();
      event.req.signal.addEventListener('abort', () => stop.abort(), { once: true });
      const done = new AbortController();
      const asked = stopAsked(ctx.state.atomics, team.id, batchId, done.signal);
      const encoder = new TextEncoder();
      const stream = new ReadableStream<Uint8Array>({
        async start(out) {
          const emit = (line: object) => {
            if (!stop.signal.aborted && !done.signal.aborted) out.enqueue(encoder.encode(`${JSON.stringify(line)}\n`));
          };
          try {
            emit(await runBatch({ router: ctx.router, team, capability, options, limits, emit, signal: stop.signal, stop: asked }, rows));
          } finally {
            done.abort();
          }
          if (!stop.signal.aborted) out.close();
        },
        cancel() {
          stop.abort();
        },
      });
      return new Response(stream, { headers: { 'content-type': 'application/x-ndjson', 'cache-control': 'no-store', [CALL_ID_HEADER]: batchId } });
    },
  }),
  route<{ team: Team; path: { capability: string; batch_id: string } }>({
    method: 'POST', path: '{proxy}/{capability}/batch/{batch_id}/stop', tags: ['routed'], auth: 'team', operationId: 'batchStop',
    summary: 'Ask a running batch of your team (its X-Svc-Call-Id) to stop: no row starts after this answer; the rows in flight finish, are charged, and are answered on the batch\'s stream before its summary (stopped: asked)',
    responses: { 202: 'Asked: the batch, if it is running, starts no more rows', 401: 'No or bad credential', 404: 'No such capability', 422: 'Not a batch id' },
    handle: async ({ ctx, team, path: { capability, batch_id } }) => {
      if (!ctx.router.isCapability(capability)) fail(404, `No routed capability '${capability}'. GET /catalog/platforms lists them.`);
      if (!/^call_[0-9a-f]{32}$/.test(batch_id)) fail(422, `'${batch_id}' is not a batch id; a batch's id is the X-Svc-Call-Id of its answer (call_ and 32 hex digits).`);
      await askToStop(ctx.state.atomics, team.id, batch_id);
      return new HTTPResponse(JSON.stringify({ batch_id, detail: 'Asked to stop: if the batch is running, no row starts after this; its rows in flight finish, are charged and are answered on its stream, then its summary says stopped: asked.' }), { status: 202, headers: { 'content-type': 'application/json' } });
    },
  }),
];
