// The built catalog: the manifest read at start; the runtime catalog (what routing and pass-through
// need: 5.3 MB of JSON at 10,000 operations, each operation parsed when first read), the list of
// endpoint entries and each shelf read on first use; the search index loaded in the background once
// the server listens (a search before then waits for it), so a start answers /meta without parsing
// and indexing every operation first; endpoint entries read from dist on first use and kept in a
// bounded LRU as ready-to-send bytes, so memory stays flat however large the catalog grows. No YAML
// is read at run time.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CatalogEntry, FinderSrc, Manifest, RuntimeCatalog, SearchRow } from '../../language/types.ts';
import { shelfHints, withoutHidden, type PlatformRow, type ShelfCapability } from '../../language/shelves.ts';
import { SearchEngine } from '../../language/search.ts';
import type { SearchIndexDump } from '../../language/search-index.ts';
import { Lru } from '../util/lru.ts';
import { onceAsync } from '../util/once.ts';
import { PROXY_URL } from '../../language/call-template.ts';
import { openRuntime } from './runtime-parts.ts';

export interface ShelfDoc {
  slug: string;
  hidden_count: number;
  capabilities: ShelfCapability[];
  hints: string[];
}

export interface DistCatalog {
  manifest: Manifest;
  platforms: { platforms: PlatformRow[]; hints: string[] };
  /** a platform's shelf, read on its first request; undefined for an unknown slug */
  shelves: { get(slug: string): { visible: ShelfDoc; all: ShelfDoc } | undefined };
  /** an entry as JSON bytes, proxy URL filled in; null for an unknown id */
  endpointBytes(id: string): Buffer | null;
  /** every endpoint id the build wrote */
  endpointIds(): ReadonlySet<string>;
  /** the search engine, loaded on the first call (svc.listen makes that call): later calls share it; a failed load is tried again */
  search(): Promise<SearchEngine>;
  /** providers and capabilities, parsed on first read (create-runtime.ts warms it after the search index); each operation parsed when first read (runtime-parts.ts) */
  readonly runtime: RuntimeCatalog;
  entry(id: string): CatalogEntry | null;
  /** the finder's words for jobs that ask svc to act (search/finder.json; none in a catalog built without it) */
  finder(): FinderSrc;
}

/** The runtime catalog alone (providers, operations, capabilities) of a dist dir, as the server holds it. */
export function loadRuntime(distDir: string): RuntimeCatalog {
  return openRuntime(join(distDir, 'catalog'));
}

/** entries kept read from dist (and, in entry-bytes.ts, live-patched ones): a bound that keeps memory flat */
export const ENTRY_CACHE = 2000;
/**
 * and the bytes each of the two caches holds at most: entries average 31 KB in the real catalog (up to
 * 85 KB), so 2,000 of them would hold 60 MB; 8 MB keeps about 250 of the entries read most lately
 */
export const ENTRY_CACHE_BYTES = 8 * 1024 * 1024;

export function loadDist(distDir: string, proxyUrl: string): DistCatalog {
  const dir = join(distDir, 'catalog');
  for (const file of ['manifest.json', 'runtime.json'])
    if (!existsSync(join(dir, file))) throw new Error(`no built catalog in ${dir} (${file} is missing): run npm run build`);
  const text = (rel: string) => readFileSync(join(dir, rel), 'utf8');
  const json = <T>(rel: string): T => JSON.parse(text(rel)) as T;
  const { _generated, ...manifest } = json<Manifest & { _generated: string }>('manifest.json');
  void _generated;
  const slugs = new Set(
    readdirSync(join(dir, 'platforms'))
      .filter((f) => f.endsWith('.json') && !f.endsWith('.all.json'))
      .map((f) => f.slice(0, -'.json'.length)),
  );
  const shelves = new Map<string, { visible: ShelfDoc; all: ShelfDoc }>();
  const shelf = (slug: string) => {
    if (!slugs.has(slug) || shelves.has(slug)) return shelves.get(slug);
    const all = json<ShelfDoc>(`platforms/${slug}.all.json`);
    return shelves
      .set(slug, { all, visible: { ...all, capabilities: withoutHidden(all.capabilities), hints: shelfHints(slug, all.hidden_count, false) } })
      .get(slug);
  };
  let ids: Set<string> | undefined;
  const endpointIds = () => (ids ??= new Set(readdirSync(join(dir, 'endpoints')).map((f) => f.slice(0, -'.json'.length))));
  const cache = new Lru<Buffer>(ENTRY_CACHE, (b) => b.length, ENTRY_CACHE_BYTES);
  const endpointBytes = (id: string) =>
    !endpointIds().has(id) ? null : (cache.get(id) ?? cache.set(id, Buffer.from(text(`endpoints/${id}.json`).replaceAll(PROXY_URL, proxyUrl))));
  // between slices of the index the event loop runs: requests keep being answered while it loads
  const pause = () => new Promise<void>((resolve) => setImmediate(resolve));
  const loadSearch = async () => {
    await pause();
    const rows = json<SearchRow[]>('search/rows.json');
    await pause();
    const dump = json<SearchIndexDump>('search/index.json');
    return SearchEngine.load(rows, dump, json('search/capabilities.json'), pause);
  };
  let runtime: RuntimeCatalog | undefined;
  return {
    manifest,
    platforms: json('platforms.json'),
    shelves: { get: shelf },
    endpointBytes,
    endpointIds,
    search: onceAsync(loadSearch),
    get runtime() {
      return (runtime ??= loadRuntime(distDir));
    },
    finder: () => (existsSync(join(dir, 'search/finder.json')) ? json<FinderSrc>('search/finder.json') : { acts: [], openers: [], gives: [], to_caller: [] }),
    entry: (id) => {
      const bytes = endpointBytes(id);
      return bytes ? (JSON.parse(bytes.toString('utf8')) as CatalogEntry) : null;
    },
  };
}
