// Open catalog reads: shelves, search, one endpoint's full entry.
import { getQuery, getRouterParam, type H3, type H3Event } from 'h3';
import type { AppContext } from '../context.ts';
import { fail } from '../errors.ts';
import { queryValidator } from '../validate.ts';
import * as schemas from '../request-schemas.ts';
import { distFiles } from './static.ts';

// A Buffer is a Uint8Array; the DOM typings only reject its ArrayBufferLike backing.
const jsonBytes = (buf: Buffer) => new Response(buf as unknown as BodyInit, { headers: { 'content-type': 'application/json' } });

const shelfQuery = queryValidator<{ include_hidden: '0' | '1' }>(schemas.shelfQuery);
const searchQuery = queryValidator<{ q: string; limit: number }>(schemas.searchQuery);

export function catalogRoutes(app: H3, { catalog, live, entryBytes, config }: AppContext): void {
  // `<id>.json` under these routes is the build's static shard (the CDN's path), served as a file
  const files = distFiles(config);
  const shard = async (event: H3Event, name: string, missing: string) => (name.endsWith('.json') ? await files(event) : undefined) ?? fail(404, missing);

  app.get('/catalog/platforms', () => {
    const platforms = catalog.platforms.platforms
      .map((p) => ({ ...p, calls_30d: live.calls30d(p.slug) }))
      .sort((a, b) => b.calls_30d - a.calls_30d || b.operations - a.operations || a.slug.localeCompare(b.slug));
    return { platforms, hints: catalog.platforms.hints };
  });

  app.get('/catalog/platforms/:slug', (event) => {
    const { include_hidden } = shelfQuery(getQuery(event));
    const slug = getRouterParam(event, 'slug')!;
    const shelf = catalog.shelves.get(slug);
    if (!shelf) return shard(event, slug, `No platform '${slug}'. GET /catalog/platforms lists them.`);
    return include_hidden === '1' ? shelf.all : shelf.visible;
  });

  app.get('/catalog/search', async (event) => {
    const { q, limit } = searchQuery(getQuery(event));
    const { hits, total } = (await catalog.search()).search(q, limit, (id) => live.measured(id));
    const results = hits.map(({ row, score }) => ({
      endpoint_id: row.endpoint_id, name: row.name, summary: row.summary, provider_display: row.provider_display,
      capability: row.capability, kind: row.kind, usd: row.usd, score, observed: live.observed(row.endpoint_id),
    }));
    const hints = results.length
      ? [`GET /catalog/endpoints/${results[0].endpoint_id} for params, cost, siblings and a call template (svc show ${results[0].endpoint_id} in a terminal)`]
      : ['No match: try fewer or broader words (svc search WORDS in a terminal), or GET /catalog/platforms to browse'];
    return { q, results, total, hints };
  });

  app.get('/catalog/endpoints/:id', (event) => {
    const id = getRouterParam(event, 'id')!;
    const bytes = entryBytes(id);
    if (!bytes) return shard(event, id, `No endpoint '${id}'. GET /catalog/search?q=… finds one.`);
    return jsonBytes(bytes);
  });
}
