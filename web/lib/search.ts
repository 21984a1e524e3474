// Search as you type in the browser: the build's FlexSearch index, loaded through the runtime's own
// search module, so a query ranks here exactly as GET /catalog/search ranks it (no round trip per key).
// The module and the index load after the first view (or at the first keystroke), not before it.
import type { SearchEngine, SearchHit } from '../../language/search.ts';
import { searchFiles } from './data.ts';

let engine: Promise<SearchEngine> | null = null;

export function loadSearch(): Promise<SearchEngine> {
  engine ??= Promise.all([import('../../language/search.ts'), searchFiles()])
    .then(([{ SearchEngine }, [rows, dump, capabilities]]) => new SearchEngine(rows, dump, capabilities));
  engine.catch(() => { engine = null; });
  return engine;
}

// No live state in the browser: the measured-first tie-break has nothing to go on.
export const search = async (q: string, limit = 30): Promise<{ hits: SearchHit[]; total: number }> =>
  (await loadSearch()).search(q, limit, () => false);
