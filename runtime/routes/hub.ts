// The tool hub: publish, check, read, run, retire, and the maker's run list. Every route needs a
// credential; the logic lives in runtime/hub/.
import { getRouterParam, HTTPResponse, type H3Event } from 'h3';
import { route } from '../http/declared-route.ts';
import * as schemas from '../http/request-schemas.ts';
import { hubOf } from '../hub/service.ts';
import { parseRef, parseToolId } from '../hub/access.ts';
import type { FileName } from '../hub/types.ts';
import type { BrowseQuery } from '../hub/browse.ts';
import type { Team } from '../state/index.ts';
import { runOptions } from '../hub/run-options.ts';

type Files = Record<FileName, string>;
/** `id` or `id@N`, decoded (a client may send the @ as %40); parseRef and parseToolId check it */
const toolParam = (event: H3Event) => getRouterParam(event, 'tool_id', { decode: true }) ?? '';
export const ref = (event: H3Event) => parseRef(toolParam(event));

/** the route headers a whole run can honour (runtime/hub/run-options.ts); the others are a 422 */
export const RUN_HEADERS = {
  'X-Svc-Route-Max-Cost':
    "Ceiling in USD for the whole run: the steps plus the tool's price. A run that cannot go on within it stops (200, _svc.stopped max_cost); the price is charged only for a complete run.",
  'X-Svc-Route-Dry-Run': "1: answer each step's plan and the worst cost (steps plus price) without calling or charging anything.",
};

const hub = { tags: ['hub'], auth: 'team' } as const;
const mine = { 401: 'No or bad credential', 403: "Another team's tool", 404: 'Unknown, or not visible to you' };

export const hubRoutes = [
  route<{ team: Team; body: { tool_id: string; files: Files } }>({
    ...hub,
    method: 'POST',
    path: '/hub/tools',
    summary:
      'Publish a tool, or a new version of your own: the four files are validated, the version stored unchecked, then its check runs once on your balance',
    request: { body: schemas.publishBody },
    responses: {
      201: 'Version stored, with its status (live, failed or unchecked) and the check',
      401: 'No or bad credential',
      409: 'The id belongs to another team',
      410: 'Retired tool',
      413: 'Body too large',
      422: 'Validation error',
    },
    handle: async ({ ctx, team, body: { tool_id, files } }) =>
      new HTTPResponse(JSON.stringify(await hubOf(ctx).publish(team, tool_id, files, 'create')), {
        status: 201,
        headers: { 'content-type': 'application/json' },
      }),
  }),

  route<{ team: Team; query: BrowseQuery & { mine?: string } }>({
    ...hub,
    method: 'GET',
    path: '/hub/tools',
    summary:
      "The store: every live tool, yours and other teams', at its newest live version with its price per run, maker, last check, whether its steps can be served and its input schema, best match first with q; your own tools that are not live too, with their status. With mine=1, every tool you made (unchecked, failed, live or retired) at its newest version",
    request: {
      query: schemas.toolListQuery,
      about: {
        mine: '1: your own tools, whatever their state',
        q: 'words: ranked as /catalog/search ranks',
        capability: 'a capability the steps use (people.email.verify)',
        maker: "the maker's team slug",
        max_price_usd: 'the highest price per run',
        limit: 'rows a page',
        cursor: 'next_cursor of the previous page',
      },
    },
    responses: { 200: 'Tools, total and next_cursor', 401: 'No or bad credential', 422: 'Validation error' },
    handle: ({ ctx, team, query }) => (query.mine === '1' ? hubOf(ctx).mine(team) : hubOf(ctx).browse(team, query)),
  }),

  route<{ team: Team; body: { files: Files } }>({
    ...hub,
    method: 'PUT',
    path: '/hub/tools/{tool_id}',
    summary: 'Publish a new version of your tool',
    request: { body: schemas.publishVersionBody, about: { tool_id: 'tool id' } },
    responses: { 200: 'Version stored, with its status and the check', ...mine, 410: 'Retired tool', 422: 'Validation error' },
    handle: ({ ctx, event, team, body: { files } }) => hubOf(ctx).publish(team, parseToolId(toolParam(event), 'A new version'), files, 'update'),
  }),

  route<{ team: Team }>({
    ...hub,
    method: 'GET',
    path: '/hub/tools/{tool_id}',
    summary: 'A tool, its newest version (or @N); the maker sees every version with reason, runs and earnings, others live versions only',
    request: { about: { tool_id: 'tool id, optionally @N' } },
    responses: { 200: 'Tool', 401: 'No or bad credential', 404: mine[404], 410: 'Retired tool', 422: 'Validation error' },
    handle: ({ ctx, event, team }) => hubOf(ctx).view(team, ref(event)),
  }),

  route<{ team: Team }>({
    ...hub,
    method: 'DELETE',
    path: '/hub/tools/{tool_id}',
    summary: 'Retire every version of your tool at once; its records, runs and earnings stay readable to you',
    request: { about: { tool_id: 'tool id' } },
    responses: { 200: 'Tool, retired', ...mine, 422: 'Not a tool id, or one with @N' },
    handle: ({ ctx, event, team }) => hubOf(ctx).retire(team, parseToolId(toolParam(event), 'Retiring')),
  }),

  route<{ team: Team }>({
    ...hub,
    method: 'POST',
    path: '/hub/tools/{tool_id}/check',
    summary:
      "Run a version's check again on your balance (the newest, or tool_id@N): an unchecked or failed one may go live; a live one stays live and its result shows on its page and in search. X-Svc-Route-Dry-Run: 1 answers the check's plan and worst cost, nothing called or charged",
    request: {
      about: { tool_id: 'tool id, optionally @N' },
      headers: { 'X-Svc-Route-Dry-Run': "1: answer the check's plan and worst cost without calling or charging anything." },
    },
    responses: { 200: 'Status and check, or the plan', ...mine, 404: 'Unknown version', 410: 'Retired tool', 422: 'Not a tool id (with @N)' },
    handle: ({ ctx, event, team }) => hubOf(ctx).check(team, ref(event), runOptions(event.req.headers).dryRun),
  }),

  route<{ team: Team; body: { input: Record<string, unknown> }; callId: string }>({
    ...hub,
    method: 'POST',
    path: '/hub/tools/{tool_id}/run',
    summary:
      "Run a tool (newest live version, or @N while pinnable): you pay every step plus its price, which its maker earns. X-Svc-Route-Max-Cost bounds the steps plus the price; X-Svc-Route-Dry-Run: 1 answers each step's plan and the worst cost, nothing called or charged",
    // an empty body is an empty object, so the answer names the missing `input`
    request: {
      body: schemas.runBody,
      emptyBody: {},
      about: { tool_id: 'tool id, optionally @N' },
      headers: RUN_HEADERS,
    },
    responses: {
      200: '{output, _svc: {call_id, tool_id, version, steps, price_micro, cost_micro, stopped?}}',
      401: 'No or bad credential',
      402: 'Balance too low',
      404: mine[404],
      409: 'No live version',
      410: 'Retired tool, or a pin past its 30 days',
      422: 'Validation error, or a route header a run cannot apply',
      502: 'A step failed',
      503: 'Storage stopped answering (the answer names the call and what was charged)',
    },
    // a paid door: every answer names the run's call id, a refusal or a storage 503 too
    paid: true,
    handle: async ({ ctx, event, team, body: { input }, callId }) => {
      const options = { ...runOptions(event.req.headers), gone: () => event.req.signal.aborted };
      const answer = await hubOf(ctx).run(team, ref(event), input, options, callId);
      return new HTTPResponse(JSON.stringify(answer.body), { status: answer.status, headers: { 'content-type': 'application/json', ...answer.headers } });
    },
  }),

  route<{ team: Team; query: { cursor?: string } }>({
    ...hub,
    method: 'GET',
    path: '/hub/tools/{tool_id}/runs',
    summary: 'Runs of your tool, newest first, 50 a page',
    request: { query: schemas.runsQuery, about: { tool_id: 'tool id', cursor: 'next_cursor of the previous page' } },
    responses: { 200: 'Runs page', ...mine, 422: 'Validation error' },
    handle: ({ ctx, event, team, query: { cursor } }) => hubOf(ctx).runs(team, parseToolId(toolParam(event), 'The run list'), cursor ? Number(cursor) : null),
  }),
];
