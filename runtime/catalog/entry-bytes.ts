// The bytes of GET /catalog/endpoints/{id}: the static entry until state has something to say about
// it, then the entry with its live parts, cached until state changes, and under steady traffic (state
// changes with every routed call) for as long as the observed summaries themselves are reused; a
// review refreshes it at once. One per app context (see createContext), shared by the h3 route and
// the server's fast path.
import { ENTRY_CACHE, ENTRY_CACHE_BYTES, type DistCatalog } from './dist.ts';
import type { LiveData } from './live.ts';
import { withLive } from './live-entry.ts';
import { Lru } from '../util/lru.ts';
import { SUMMARY_TTL_MS } from '../state/observations.ts';

export type EntryBytes = (id: string) => Buffer | null;

export function entryBytes(catalog: DistCatalog, live: LiveData): EntryBytes {
  // patched entries are as many as the static ones may be
  const patched = new Lru<{ version: number; reviews: number; at: number; bytes: Buffer }>(ENTRY_CACHE, (p) => p.bytes.length, ENTRY_CACHE_BYTES);
  return (id) => {
    const version = live.version();
    if (version === 0) return catalog.endpointBytes(id);
    const hit = patched.get(id);
    const now = Date.now();
    const reviews = live.reviewsVersion();
    if (hit && hit.reviews === reviews && (hit.version === version || now - hit.at < SUMMARY_TTL_MS)) return hit.bytes;
    const entry = catalog.entry(id);
    if (!entry) return null;
    return patched.set(id, { version, reviews, at: now, bytes: Buffer.from(JSON.stringify(withLive(entry, live))) }).bytes;
  };
}
