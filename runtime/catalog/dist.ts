// The built catalog in memory, loaded once at start: no YAML is read at run time. Endpoint entries
// stay as ready-to-send bytes; only entries with live data (observations, reviews) are re-serialised.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CatalogEntry, Manifest, RuntimeCatalog, SearchRow } from '../../build/types.ts';
import type { PlatformRow } from '../../build/resolve-shelves.ts';
import { SearchEngine } from './search.ts';

export interface ShelfDoc {
  slug: string;
  hidden_count: number;
  capabilities: unknown[];
}

export interface DistCatalog {
  dir: string;
  manifest: Manifest;
  platforms: { platforms: PlatformRow[]; hints: string[] };
  shelves: Map<string, { visible: ShelfDoc; all: ShelfDoc }>;
  /** endpoint id -> its catalog entry as JSON bytes, proxy URL filled in */
  endpoints: Map<string, Buffer>;
  search: SearchEngine;
  runtime: RuntimeCatalog;
  entry(id: string): CatalogEntry | null;
}

export function loadDist(distDir: string, proxyUrl: string): DistCatalog {
  const dir = join(distDir, 'catalog');
  if (!existsSync(join(dir, 'manifest.json'))) throw new Error(`no built catalog in ${dir}: run npm run build`);
  const text = (rel: string) => readFileSync(join(dir, rel), 'utf8');
  const json = <T>(rel: string): T => JSON.parse(text(rel)) as T;
  const { _generated, ...manifest } = json<Manifest & { _generated: string }>('manifest.json');
  void _generated;
  const shelves = new Map<string, { visible: ShelfDoc; all: ShelfDoc }>();
  for (const f of readdirSync(join(dir, 'platforms')).filter((f) => f.endsWith('.json') && !f.endsWith('.all.json'))) {
    const slug = f.slice(0, -'.json'.length);
    shelves.set(slug, { visible: json(`platforms/${f}`), all: json(`platforms/${slug}.all.json`) });
  }
  const endpoints = new Map<string, Buffer>();
  for (const f of readdirSync(join(dir, 'endpoints'))) {
    endpoints.set(f.slice(0, -'.json'.length), Buffer.from(text(`endpoints/${f}`).replaceAll('{{proxy_url}}', proxyUrl)));
  }
  const rows = json<SearchRow[]>('search/rows.json');
  return {
    dir,
    manifest,
    platforms: json('platforms.json'),
    shelves,
    endpoints,
    search: new SearchEngine(rows, json('search/index.json')),
    runtime: json('runtime.json'),
    entry: (id) => (endpoints.has(id) ? (JSON.parse(endpoints.get(id)!.toString('utf8')) as CatalogEntry) : null),
  };
}
