// The own endpoints as OpenAPI operations. Each route group's paths are listed here, in SPEC order;
// request schemas are the ones the routes validate with (request-schemas.ts).
import * as schemas from './request-schemas.ts';
import type { ObjectSchema } from './request-schemas.ts';
type Op = { summary: string; tags: string[]; parameters?: unknown[]; requestBody?: unknown; responses: Record<string, unknown>; security?: unknown[] };

const json = (description: string, schema: unknown = { type: 'object' }) => ({ description, content: { 'application/json': { schema } } });
const err = (description: string) => json(description, { $ref: '#/components/schemas/HTTPError' });
const invalid = { description: 'Validation error', content: { 'application/json': { schema: { $ref: '#/components/schemas/HTTPValidationError' } } } };
/** a query schema's properties as parameters, each with its description */
const query = (schema: ObjectSchema, descriptions: Record<string, string>) =>
  Object.entries(schema.properties).map(([name, s]) => ({ name, in: 'query', required: false, schema: s, description: descriptions[name] }));
/** a path schema's properties as parameters (the route validates them with the same schema) */
const path = (schema: ObjectSchema, descriptions: Record<string, string>) =>
  Object.entries(schema.properties).map(([name, s]) => ({ name, in: 'path', required: true, schema: s, description: descriptions[name] }));
const p = (name: string, description: string) => ({ name, in: 'path', required: true, schema: { type: 'string' }, description });
const body = (schema: ObjectSchema) => ({ required: true, content: { 'application/json': { schema } } });
const org = { name: 'x-svc-org', in: 'header', required: false, schema: { type: 'string' }, description: 'team slug; must name the credential\'s team' };
const auth = [{ token: [] }, { session: [] }];
const received = { id: { type: 'integer' }, status: { const: 'received' }, created_at: { type: 'string', format: 'date-time' } };
const admin = [{ admin: [] }];

export const ownPaths: Record<string, Record<string, Op>> = {
  '/meta': { get: { summary: 'Proxy URL, release and dashboard versions, catalog hash', tags: ['meta'], responses: { 200: json('Meta') } } },
  '/catalog/platforms': { get: { summary: 'Platform shelves, busiest first', tags: ['catalog'], responses: { 200: json('Platforms') } } },
  '/catalog/platforms/{slug}': {
    get: {
      summary: 'One shelf, operations grouped by capability', tags: ['catalog'],
      parameters: [p('slug', 'platform slug'), ...query(schemas.shelfQuery, { include_hidden: '1 keeps account and utility operations' })],
      responses: { 200: json('Shelf'), 404: err('Unknown platform'), 422: invalid },
    },
  },
  '/catalog/search': {
    get: {
      summary: 'Token-matching search over every operation', tags: ['catalog'],
      parameters: query(schemas.searchQuery, { q: 'words', limit: 'rows' }),
      responses: { 200: json('Results'), 422: invalid },
    },
  },
  '/catalog/find': {
    get: {
      summary: 'Describe a job: NDJSON, a candidates line at once, then a judged line when the judge answers in time', tags: ['catalog'],
      parameters: query(schemas.findQuery, { q: 'the job, in words' }),
      responses: { 200: { description: 'NDJSON stream', content: { 'application/x-ndjson': { schema: { type: 'string' } } } }, 422: invalid, 429: err('Rate limited; see Retry-After') },
    },
  },
  '/catalog/endpoints/{endpoint_id}': {
    get: {
      summary: 'Full catalog entry: params, cost, siblings, call template, example', tags: ['catalog'],
      parameters: [p('endpoint_id', 'dotted id, e.g. svc.people.enrich')],
      responses: { 200: json('Catalog entry'), 404: err('Unknown endpoint'), 422: invalid },
    },
  },
  '/auth/session': {
    post: {
      summary: 'Trade an API token for a dashboard session cookie (svc_session)', tags: ['teams'],
      requestBody: body(schemas.sessionBody),
      responses: { 200: json('Session opened', { type: 'object', properties: { team: { type: 'string' } } }), 401: err('Bad token'), 422: invalid },
    },
    delete: { summary: 'Sign out: end the session server-side and clear its cookie', tags: ['teams'], responses: { 204: { description: 'Signed out (also without a session)' } } },
  },
  '/teams/me': {
    get: { summary: "The caller's team: balance, earnings, providers with own keys", tags: ['teams'], security: auth, parameters: [org], responses: { 200: json('Team'), 401: err('No or bad credential'), 403: err('x-svc-org names another team') } },
  },
  '/teams/me/ledger': {
    get: {
      summary: 'Ledger entries, newest first, 50 a page', tags: ['teams'], security: auth,
      parameters: [org, ...query(schemas.ledgerQuery, { cursor: 'next_cursor of the previous page' })],
      responses: { 200: json('Ledger page'), 401: err('No or bad credential'), 422: invalid },
    },
  },
  '/teams/me/keys/{provider}': {
    post: {
      summary: "Store the team's own key for a provider (encrypted at rest, never shown again)", tags: ['teams'], security: auth,
      parameters: [org, p('provider', 'provider key, e.g. hunter')], requestBody: body(schemas.keyBody),
      responses: { 200: json('Stored'), 401: err('No or bad credential'), 404: err('Unknown provider'), 413: err('Body too large'), 422: invalid },
    },
    delete: {
      summary: "Remove the team's own key for a provider", tags: ['teams'], security: auth,
      parameters: [org, p('provider', 'provider key')], responses: { 200: json('Removed'), 401: err('No or bad credential'), 404: err('Unknown provider') },
    },
  },
  '/admin/teams': {
    get: { summary: 'Every team with its balance, oldest first', tags: ['admin'], security: admin, responses: { 200: json('Teams'), 401: err('Bad x-svc-admin'), 404: err('Administration disabled') } },
    post: {
      summary: 'Create a team with credit and its first token (SVC_ADMIN_TOKEN only)', tags: ['admin'], security: admin,
      requestBody: body(schemas.createTeamBody),
      responses: { 201: json('Team and token (shown once)'), 401: err('Bad x-svc-admin'), 404: err('Administration disabled'), 409: err('Slug taken'), 422: invalid },
    },
  },
  '/admin/teams/{team}/tokens': {
    post: {
      summary: 'Issue another token for a team', tags: ['admin'], security: admin, parameters: [p('team', 'team slug')],
      responses: { 201: json('Token (shown once)'), 401: err('Bad x-svc-admin'), 404: err('Unknown team or administration disabled') },
    },
  },
  '/admin/teams/{team}/credit': {
    post: {
      summary: "Add credit to a team's balance", tags: ['admin'], security: admin, parameters: [p('team', 'team slug')],
      requestBody: body(schemas.creditBody),
      responses: { 200: json('New balance'), 401: err('Bad x-svc-admin'), 404: err('Unknown team or administration disabled'), 422: invalid },
    },
  },
  '/hub/tools': {
    get: {
      summary: 'The tools you may run now: live, not retired, yours and other teams\', each at its newest live version with its input schema; with mine=1, every tool you made (unchecked, failed, live or retired) at its newest version', tags: ['hub'], security: auth,
      parameters: [org, ...query(schemas.toolListQuery, { mine: '1: your own tools, whatever their state' })], responses: { 200: json('Tools'), 401: err('No or bad credential'), 422: invalid },
    },
    post: {
      summary: 'Publish a tool, or a new version of your own: the four files are validated, the version stored unchecked, then its check runs once on your balance', tags: ['hub'], security: auth,
      parameters: [org], requestBody: body(schemas.publishBody),
      responses: { 201: json('Version stored, with its status (live, failed or unchecked) and the check'), 401: err('No or bad credential'), 409: err('The id belongs to another team'), 410: err('Retired tool'), 413: err('Body too large'), 422: invalid },
    },
  },
  '/hub/tools/{tool_id}': {
    get: {
      summary: 'A tool, its newest version (or @N); the maker sees every version with reason, runs and earnings, others live versions only', tags: ['hub'], security: auth,
      parameters: [org, p('tool_id', 'tool id, optionally @N')], responses: { 200: json('Tool'), 401: err('No or bad credential'), 404: err('Unknown, or not visible to you'), 410: err('Retired tool'), 422: invalid },
    },
    put: {
      summary: 'Publish a new version of your tool', tags: ['hub'], security: auth,
      parameters: [org, p('tool_id', 'tool id')], requestBody: body(schemas.publishVersionBody),
      responses: { 200: json('Version stored, with its status and the check'), 401: err('No or bad credential'), 403: err('Another team\'s tool'), 404: err('Unknown, or not visible to you'), 410: err('Retired tool'), 422: invalid },
    },
    delete: {
      summary: 'Retire every version of your tool at once; its records, runs and earnings stay readable to you', tags: ['hub'], security: auth,
      parameters: [org, p('tool_id', 'tool id')], responses: { 200: json('Tool, retired'), 401: err('No or bad credential'), 403: err('Another team\'s tool'), 404: err('Unknown, or not visible to you') },
    },
  },
  '/hub/tools/{tool_id}/check': {
    post: {
      summary: 'Run the check of an unchecked or failed version again (tool_id@N)', tags: ['hub'], security: auth,
      parameters: [org, p('tool_id', 'tool id with @N')], responses: { 200: json('Status and check'), 401: err('No or bad credential'), 403: err('Another team\'s tool'), 404: err('Unknown version'), 409: err('Already live'), 410: err('Retired tool') },
    },
  },
  '/hub/tools/{tool_id}/run': {
    post: {
      summary: 'Run a tool (newest live version, or @N while pinnable): you pay every step plus its price, which its maker earns', tags: ['hub'], security: auth,
      parameters: [org, p('tool_id', 'tool id, optionally @N')], requestBody: body(schemas.runBody),
      responses: {
        200: json('{output, _svc: {call_id, tool_id, version, steps, price_micro, cost_micro, stopped?}}'), 401: err('No or bad credential'), 402: err('Balance too low'),
        404: err('Unknown, or not visible to you'), 409: err('No live version'), 410: err('Retired tool, or a pin past its 30 days'), 422: invalid, 502: err('A step failed'),
      },
    },
  },
  '/hub/tools/{tool_id}/runs': {
    get: {
      summary: 'Runs of your tool, newest first, 50 a page', tags: ['hub'], security: auth,
      parameters: [org, p('tool_id', 'tool id'), ...query(schemas.runsQuery, { cursor: 'next_cursor of the previous page' })],
      responses: { 200: json('Runs page'), 401: err('No or bad credential'), 403: err('Another team\'s tool'), 404: err('Unknown, or not visible to you'), 422: invalid },
    },
  },
  '/mcp': Object.fromEntries(['post', 'get', 'delete'].map((m) => [m, {
    summary: 'MCP over Streamable HTTP, stateless: catalog tools, one tool per routed capability, your live hub tools (docs/agents.md)', tags: ['mcp'],
    security: [{ token: [] }, { bearer: [] }], responses: { 200: json('A JSON-RPC answer'), 401: err('No or bad credential'), 405: err('No stream in stateless mode') },
  }])),
  '/openapi.json': { get: { summary: 'This document', tags: ['meta'], responses: { 200: json('OpenAPI 3.1.0') } } },
  '/feedback': {
    post: {
      summary: 'Tell svc about a bug, wrong data, a missing provider, a price, an idea', tags: ['feedback'], security: auth,
      parameters: [org], requestBody: body(schemas.feedbackBody),
      responses: {
        201: json('Received', { type: 'object', required: ['id', 'status', 'created_at'], properties: received }),
        400: err('Body is not JSON'), 401: err('No or bad credential'), 403: err('x-svc-org names another team'), 413: err('Body too large'), 422: invalid,
      },
    },
  },
  '/feedback/{feedback_id}': {
    get: {
      summary: 'One feedback record, to the team that sent it', tags: ['feedback'], security: auth,
      parameters: [org, ...path(schemas.feedbackParams, { feedback_id: 'id answered by POST /feedback' })],
      responses: {
        200: json('The record', { type: 'object', required: ['id', 'kind', 'message', 'status', 'created_at'], properties: { ...schemas.feedbackBody.properties, ...received } }),
        401: err('No or bad credential'), 404: err('No such record from this team'), 422: invalid,
      },
    },
  },
  '/reviews': {
    post: {
      summary: "Review a catalog operation: one per team, operation and month (UTC); a second replaces the first", tags: ['feedback'], security: auth,
      parameters: [org], requestBody: body(schemas.reviewBody),
      responses: {
        201: json('Stored', {
          type: 'object', required: ['id', 'endpoint_id', 'usefulness', 'month', 'replaced'],
          properties: { id: { type: 'integer' }, endpoint_id: { type: 'string' }, usefulness: schemas.reviewBody.properties.usefulness, month: { type: 'string', pattern: '^\\d{4}-\\d{2}$' }, replaced: { type: 'boolean' } },
        }),
        400: err('Body is not JSON'), 401: err('No or bad credential'), 403: err('x-svc-org names another team'), 422: invalid,
      },
    },
  },
  '/healthz': { get: { summary: 'The process serves', tags: ['meta'], responses: { 200: json('Serving') } } },
  '/readyz': { get: { summary: 'Storage takes a write (else 503)', tags: ['meta'], responses: { 200: json('Ready'), 503: err('Storage does not answer') } } },
};
