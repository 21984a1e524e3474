// The words of each row of search and of its provider, worked out when the engine loads (the encoder
// runs per row, the costly part of a load), and the stems of any text as search reads them.
import type { SearchRow } from './types.ts';
import { searchEncoder, STOPWORDS, wordEncoder } from './encoder.ts';

/** The words of a text as search reads them, stopwords left out; each new word as written goes into `written` with its stem. */
export function stemsOf(text: string, written: Map<string, string>): string[] {
  const stems: string[] = [];
  for (const w of wordEncoder.encode(text)) {
    if (STOPWORDS.has(w)) continue;
    let s = written.get(w);
    if (s === undefined) written.set(w, (s = searchEncoder.encode(w)[0] ?? w));
    stems.push(s);
  }
  return stems;
}

/** Each row's own words (name, capability, terms) and its provider's: the costly part of loading (the encoder runs per row). */
export interface RowWords {
  own: Array<Set<string>>;
  providers: Array<Set<string>>;
  /** every word of those texts as written, with its stem (a word is stemmed once, however many rows hold it) */
  written: Map<string, string>;
}
export const newRowWords = (): RowWords => ({ own: [], providers: [], written: new Map() });
export function addRowWords(words: RowWords, rows: SearchRow[], byProvider: Map<string, Set<string>>): void {
  for (const r of rows) {
    words.own.push(new Set(stemsOf(`${r.name} ${r.capability.replaceAll('.', ' ')} ${(r.terms ?? []).join(' ')}`, words.written)));
    // rows of one provider share its words: read once per provider
    const text = `${r.provider_display} ${r.provider}`;
    let p = byProvider.get(text);
    if (!p) byProvider.set(text, (p = new Set(stemsOf(text, words.written))));
    words.providers.push(p);
  }
}
export function rowWords(rows: SearchRow[]): RowWords {
  const words = newRowWords();
  addRowWords(words, rows, new Map());
  return words;
}
