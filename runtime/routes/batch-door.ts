// What every batch door does once it knows what one row is (a RowRunner): read the NDJSON body, run
// the rows, stream their lines as they finish and the summary; and the ask to stop a running batch.
// The doors (runtime/routes/batch.ts for capabilities, runtime/routes/hub-batch.ts for tools)
// declare their paths and what a row is, and share these, their headers and answers included.
import { HTTPResponse, type H3Event } from 'h3';
import type { IncomingMessage } from 'node:http';
import type { AppContext } from '../context/context.ts';
import { fail } from '../util/fail.ts';
import { readNode } from '../http/body.ts';
import { CALL_ID_HEADER } from '../util/call-id.ts';
import type { Team } from '../state/index.ts';
import { MAX_BATCH_BYTES, parseBatch } from '../batch/input.ts';
import { parseBatchLimits } from '../batch/options.ts';
import { runBatch, type RowRunner } from '../batch/run.ts';
import { askToStop, stopAsked } from '../batch/stop.ts';

/** the batch's own request headers, as /openapi.json describes them */
export const BATCH_HEADERS = {
  'X-Svc-Batch-Max-Cost':
    'USD the whole batch may cost; each row runs within what is left, and a row whose cheapest attempt no longer fits answers skipped: budget',
  'X-Svc-Batch-Concurrency': 'rows in flight at once, 1 to 32 (default 8)',
};

/** the answers every batch door shares */
export const BATCH_ANSWERS = {
  400: 'A line is not a JSON object',
  401: 'No or bad credential',
  413: 'More than 10,000 rows or 16 MiB',
  422: 'A bad route or batch header',
};

export const STOP_SUMMARY =
  "Ask a running batch of your team (its X-Svc-Call-Id) to stop: no row starts after this answer; the rows in flight finish, are charged, and are answered on the batch's stream before its summary (stopped: asked)";
export const STOP_ANSWERS = { 202: 'Asked: the batch, if it is running, starts no more rows', 401: 'No or bad credential', 422: 'Not a batch id' };

async function readText(event: H3Event): Promise<string> {
  if (Number(event.req.headers.get('content-length')) > MAX_BATCH_BYTES) fail(413, `A batch body holds at most ${MAX_BATCH_BYTES} bytes; split the list.`);
  const node = (event.req as { runtime?: { node?: { req?: IncomingMessage } } }).runtime?.node?.req;
  const text = node ? await readNode(node, MAX_BATCH_BYTES, (text) => text) : await event.req.text();
  if (Buffer.byteLength(text) > MAX_BATCH_BYTES) fail(413, `A batch body holds at most ${MAX_BATCH_BYTES} bytes; split the list.`);
  return text;
}

/** The batch's headers and body checked (nothing runs on a 4xx), then its rows streamed as NDJSON. */
export async function batchAnswer(ctx: AppContext, event: H3Event, team: Team, runner: RowRunner, batchId: string): Promise<Response> {
  const limits = parseBatchLimits(event.req.headers);
  const rows = parseBatch(await readText(event));
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
        emit(await runBatch({ runner, limits, emit, signal: stop.signal, stop: asked }, rows));
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
}

/** POST …/batch/{batch_id}/stop, once the door has checked what the batch runs */
export async function stopAnswer(ctx: AppContext, team: Team, batchId: string): Promise<HTTPResponse> {
  if (!/^call_[0-9a-f]{32}$/.test(batchId))
    fail(422, `'${batchId}' is not a batch id; a batch's id is the X-Svc-Call-Id of its answer (call_ and 32 hex digits).`);
  await askToStop(ctx.state.atomics, team.id, batchId);
  return new HTTPResponse(
    JSON.stringify({
      batch_id: batchId,
      detail:
        'Asked to stop: if the batch is running, no row starts after this; its rows in flight finish, are charged and are answered on its stream, then its summary says stopped: asked.',
    }),
    { status: 202, headers: { 'content-type': 'application/json' } },
  );
}
