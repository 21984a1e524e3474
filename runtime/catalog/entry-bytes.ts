// The bytes of GET /catalog/endpoints/{id}: the static entry until state has something to say about
// it, then the entry with its live parts, cached until state changes. One per app context (see
// createContext), shared by the h3 route and the server's fast path so both answer the same bytes.
import type { DistCatalog } from './dist.ts';
import type { LiveData } from '../live.ts';
import { withLive } from './live-entry.ts';
import { Lru } from '../util/lru.ts';

export type EntryBytes = (id: string) => Buffer | null;

/** Patched entries are as many as the static ones may be: the same bound keeps memory flat. */
const PATCHED_CACHE = 2000;

export function entryBytes(catalog: DistCatalog, live: LiveData): EntryBytes {
  const patched = new Lru<{ version: number; bytes: Buffer }>(PATCHED_CACHE);
  return (id) => {
    const version = live.version();
    if (version === 0) return catalog.endpointBytes(id);
    const hit = patched.get(id);
    if (hit?.version === version) return hit.bytes;
    const entry = catalog.entry(id);
    if (!entry) return null;
    return patched.set(id, { version, bytes: Buffer.from(JSON.stringify(withLive(entry, live))) }).bytes;
  };
}
