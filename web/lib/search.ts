// Search as you type in the browser: the build's FlexSearch index, loaded through the runtime's own
// search module, so a query ranks here exactly as GET /catalog/search ranks it (no round trip per key).
// The module and the index load after the first view (or at the first keystroke), not before it.
import type { SearchEngine, SearchHit } from '../../language/search.ts';
import { catalogWords, namesNothing, type CatalogWords } from '../../runtime/find/nothing.ts';
import { searchFiles } from './data.ts';

let engine: Promise<SearchEngine> | null = null;
let words: Promise<CatalogWords> | null = null;

export function loadSearch(): Promise<SearchEngine> {
  engine ??= Promise.all([import('../../language/search.ts'), searchFiles()]).then(
    ([{ SearchEngine }, [rows, dump, capabilities]]) => new SearchEngine(rows, dump, capabilities),
  );
  engine.catch(() => {
    engine = null;
  });
  return engine;
}

/** the catalog's words, for telling a job it knows from one it does not (as GET /catalog/find does) */
function loadWords(): Promise<CatalogWords> {
  words ??= loadSearch().then((e) => catalogWords(e.rows, e.capabilities));
  words.catch(() => {
    words = null;
  });
  return words;
}

/**
 * No live state in the browser: the measured-first tie-break has nothing to go on. `nothing`: the
 * query names no word of the catalog (its last word as typed may be the start of one), so its rows
 * are letter matches only and the page says nothing does it instead of listing them.
 */
export async function search(q: string, limit = 30): Promise<{ hits: SearchHit[]; total: number; nothing: boolean }> {
  const [e, known] = await Promise.all([loadSearch(), loadWords()]);
  const nothing = namesNothing(
    known,
    e.read(q).terms.map((t) => t.term),
    q,
    true,
  );
  return nothing ? { hits: [], total: 0, nothing } : { ...e.search(q, limit, () => false), nothing };
}
