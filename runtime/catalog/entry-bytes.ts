// The bytes of GET /catalog/endpoints/{id}: the static entry until state has something to say about
// it, then the entry with its live parts, cached until state changes. Shared by the h3 route and the
// server's fast path so both answer the same bytes.
import type { DistCatalog } from './dist.ts';
import type { LiveData } from '../live.ts';
import { withLive } from './live-entry.ts';

export type EntryBytes = (id: string) => Buffer | null;

const shared = new WeakMap<DistCatalog, WeakMap<LiveData, EntryBytes>>();

/** One function per catalog and live source, so the route and the fast path share one cache. */
export function entryBytesFor(catalog: DistCatalog, live: LiveData): EntryBytes {
  const byLive = shared.get(catalog) ?? new WeakMap<LiveData, EntryBytes>();
  shared.set(catalog, byLive);
  let fn = byLive.get(live);
  if (!fn) { fn = entryBytes(catalog, live); byLive.set(live, fn); }
  return fn;
}

function entryBytes(catalog: DistCatalog, live: LiveData): EntryBytes {
  const patched = new Map<string, { version: number; bytes: Buffer }>();
  return (id) => {
    const version = live.version();
    if (version === 0) return catalog.endpointBytes(id);
    const hit = patched.get(id);
    if (hit?.version === version) return hit.bytes;
    const entry = catalog.entry(id);
    if (!entry) return null;
    const bytes = Buffer.from(JSON.stringify(withLive(entry, live)));
    patched.set(id, { version, bytes });
    return bytes;
  };
}
