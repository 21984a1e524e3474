// Open catalog reads: shelves, search, price drift, one endpoint's full entry.
import type { H3Event } from 'h3';
import { route } from '../http/declared-route.ts';
import { fail } from '../util/fail.ts';
import * as schemas from '../http/request-schemas.ts';
import { filesOf } from './static.ts';
import type { AppContext } from '../context/context.ts';
import { driftReport } from '../catalog/drift.ts';
import { toolHits, withToolRows, withTools } from '../hub/tool-rows.ts';
import { triedOrder } from '../catalog/tried-order.ts';
import { credentialsOf, teamFor } from '../http/auth.ts';
import { parseRouteOptions } from '../router/options.ts';
import { closest } from '../../language/search-words.ts';

// A Buffer is a Uint8Array; the DOM typings only reject its ArrayBufferLike backing.
const jsonBytes = (buf: Buffer) => new Response(buf as unknown as BodyInit, { headers: { 'content-type': 'application/json' } });

/** `<id>.json` under these routes is the build's static shard (the CDN's path), served as a file */
const shard = async (ctx: AppContext, event: H3Event, name: string, missing: string) =>
  (name.endsWith('.json') ? await filesOf(ctx)(event) : undefined) ?? fail(404, missing);

/**
 * The id a caller most likely meant: the same in another case, a capability's routed entry
 * ('people.enrich' is svc.people.enrich), else the id a typo or two away ('hunter.people.email.findd').
 */
function meant(ids: ReadonlySet<string>, id: string): string | null {
  const lower = id.toLowerCase();
  const wanted = new Set([lower, `svc.${lower}`]);
  for (const known of ids) if (wanted.has(known.toLowerCase())) return known;
  return closest(lower, [...ids]);
}

export const catalogRoutes = [
  route({
    method: 'GET',
    path: '/catalog/platforms',
    summary: 'Platform shelves, busiest first',
    tags: ['catalog'],
    auth: 'none',
    open: true,
    responses: { 200: 'Platforms' },
    handle: ({ ctx: { catalog, live } }) => {
      const platforms = catalog.platforms.platforms
        .map((p) => ({ ...p, calls_30d: live.calls30d(p.slug) }))
        .sort((a, b) => b.calls_30d - a.calls_30d || b.operations - a.operations || a.slug.localeCompare(b.slug));
      return { platforms, hints: catalog.platforms.hints };
    },
  }),

  route<{ path: { slug: string }; query: { include_hidden: '0' | '1' } }>({
    method: 'GET',
    path: '/catalog/platforms/{slug}',
    summary: 'One shelf, operations grouped by capability',
    tags: ['catalog'],
    auth: 'none',
    open: true,
    request: { query: schemas.shelfQuery, about: { slug: 'platform slug', include_hidden: '1 keeps account and utility operations' } },
    responses: { 200: 'Shelf', 404: 'Unknown platform', 422: 'Validation error' },
    handle: ({ ctx, event, path: { slug }, query: { include_hidden } }) => {
      const shelf = ctx.catalog.shelves.get(slug);
      if (!shelf) return shard(ctx, event, slug, `No platform '${slug}'; the platforms are ${ctx.catalog.platforms.platforms.map((p) => p.slug).join(', ')}.`);
      return include_hidden === '1' ? shelf.all : shelf.visible;
    },
  }),

  route<{ query: { q: string; limit: number } }>({
    method: 'GET',
    path: '/catalog/search',
    summary: 'Token-matching search over every operation and every live hub tool (kind tool)',
    tags: ['catalog'],
    auth: 'none',
    open: true,
    request: { query: schemas.searchQuery, about: { q: 'words', limit: 'rows' } },
    responses: { 200: 'Results', 422: 'Validation error' },
    handle: async ({ ctx, query: { q, limit } }) => {
      const { catalog, live } = ctx;
      const engine = await catalog.search();
      const { hits, total } = engine.search(q, limit, (id) => live.measured(id));
      const operations = hits.map(({ row, score }) => ({
        endpoint_id: row.endpoint_id,
        name: row.name,
        summary: row.summary,
        provider_display: row.provider_display,
        capability: row.capability,
        kind: row.kind,
        usd: row.usd,
        score,
        observed: live.observed(row.endpoint_id),
      }));
      // live hub tools beside the operations, by the same scores
      const tools = await toolHits(ctx, engine, q);
      const results = await withToolRows(ctx, engine, withTools(operations, tools).slice(0, limit));
      const hints = results.length
        ? [
            results[0].kind === 'tool'
              ? `GET /hub/tools/${results[0].endpoint_id.slice(4)} for its schemas, price, checks and call templates (svc hub show ${results[0].endpoint_id.slice(4)} in a terminal)`
              : `GET /catalog/endpoints/${results[0].endpoint_id} for params, cost, siblings and a call template (svc show ${results[0].endpoint_id} in a terminal)`,
          ]
        : ['No match: try fewer or broader words (svc search WORDS in a terminal), or GET /catalog/platforms to browse'];
      return { q, results, total: total + tools.length, hints };
    },
  }),

  route({
    method: 'GET',
    path: '/catalog/drift',
    summary: 'Operations whose providers reported charges other than the list price',
    tags: ['catalog'],
    auth: 'none',
    open: true,
    responses: { 200: 'Operations whose reported charges differ from their price' },
    handle: ({ ctx: { catalog, live } }) => driftReport(catalog.runtime, live),
  }),

  route<{ path: { endpoint_id: string } }>({
    method: 'GET',
    path: '/catalog/endpoints/{endpoint_id}',
    summary: 'Full catalog entry: params, cost, siblings, call template, example',
    tags: ['catalog'],
    auth: 'none',
    open: true,
    request: { about: { endpoint_id: 'dotted id, e.g. svc.people.enrich' } },
    responses: { 200: 'Catalog entry', 404: 'Unknown endpoint', 422: 'Validation error' },
    handle: ({ ctx, event, path: { endpoint_id } }) => {
      const bytes = ctx.entryBytes(endpoint_id);
      if (!bytes) {
        const near = meant(ctx.catalog.endpointIds(), endpoint_id);
        // the id as the caller wrote it, not as the path carried it ('%20'; a malformed escape was a 400 before here)
        const said = decodeURIComponent(endpoint_id);
        // search names hub tools hub:<id>; their pages are the hub's
        const tool = said.startsWith('hub:') ? said.slice('hub:'.length) : null;
        return shard(
          ctx,
          event,
          endpoint_id,
          tool
            ? `'${said}' is a hub tool, not a catalog operation: GET /hub/tools/${encodeURIComponent(tool)} shows it (with a team's credential).`
            : near
              ? `No endpoint '${said}'; did you mean '${near}'? GET /catalog/endpoints/${near}`
              : `No endpoint '${said}'. GET /catalog/search?q=… finds one.`,
        );
      }
      return jsonBytes(bytes);
    },
  }),

  route<{ path: { capability: string } }>({
    method: 'GET',
    path: '/catalog/capabilities/{capability}/plan',
    summary: 'The order a routed capability tries its children in, for the caller',
    tags: ['catalog'],
    auth: 'none',
    open: true,
    request: {
      about: { capability: 'a routed capability, e.g. people.email.verify' },
      headers: {
        'x-svc-token': "optional: plan with this team's own keys (a dashboard session does too)",
        'X-Svc-Route-*': 'optional route options, as on a call',
      },
    },
    responses: {
      200: 'The children in the order tried, whether each bills a miss, and those left out',
      401: 'Credentials sent but not valid',
      404: 'Unknown capability',
      422: 'Validation error',
    },
    handle: async ({ ctx, event, path: { capability } }) => {
      if (!ctx.catalog.runtime.capabilities[capability]) fail(404, `No routed capability '${capability}'. GET /catalog/search?q=… finds one.`);
      const creds = credentialsOf(event);
      const team = creds.token || creds.session ? await teamFor(ctx.state, creds) : null;
      return triedOrder(ctx, capability, team, parseRouteOptions(event.req.headers));
    },
  }),
];
