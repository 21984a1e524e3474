// Search as you type in the browser: the build's FlexSearch index, loaded through the runtime's own
// search module, so a query ranks here exactly as GET /catalog/search ranks it (no round trip per key).
import { SearchEngine, type SearchHit } from '../../runtime/catalog/search.ts';
import { searchFiles } from './data.ts';

let engine: Promise<SearchEngine> | null = null;

/** Starts loading the index (idle time after the first view, or the first keystroke). */
export function loadSearch(): Promise<SearchEngine> {
  engine ??= searchFiles().then(([rows, dump]) => new SearchEngine(rows, dump));
  engine.catch(() => { engine = null; });
  return engine;
}

// No live state in the browser: the measured-first tie-break has nothing to go on.
export const search = async (q: string, limit = 30): Promise<{ hits: SearchHit[]; total: number }> =>
  (await loadSearch()).search(q, limit, () => false);
