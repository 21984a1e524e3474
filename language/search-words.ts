// Words as search reads them, apart from the index: providers' display names that look like domains,
// a prefix among known words, and the known word a typo meant.
import type { SearchRow } from './types.ts';

/**
 * Display names search reads as their provider's key, longest first, as one pattern: those the
 * encoder would read as a domain ('Snov.io'), and one-word names written in parts ('ZeroBounce' as
 * 'zero bounce' or 'zero-bounce'), where not every part is a word of the catalog's jobs
 * (`jobWord`): 'company enrich' stays the job, not CompanyEnrich.
 */
export function providerNames(rows: SearchRow[], jobWord: (word: string) => boolean): { pattern: RegExp; keys: Map<string, string> } | null {
  const keys = new Map<string, string>();
  for (const r of rows) {
    const display = r.provider_display.trim();
    const name = display.toLowerCase();
    if (name.includes('.')) keys.set(name, r.provider);
    const parts = /^[A-Za-z]+$/.test(display) ? display.split(/(?<=[a-z])(?=[A-Z])/).map((p) => p.toLowerCase()) : [];
    if (parts.length > 1 && !parts.every(jobWord)) for (const joint of [' ', '-']) keys.set(parts.join(joint), r.provider);
  }
  if (!keys.size) return null;
  const names = [...keys.keys()].sort((a, b) => b.length - a.length).map((n) => n.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  // whole names only: not inside a longer word or domain ('hunter.io' but not 'myhunter.io' or 'hunter.io.example')
  return { pattern: new RegExp(`(^|[^\\p{L}\\p{N}.@])(${names.join('|')})(?![\\p{L}\\p{N}]|\\.[\\p{L}\\p{N}])`, 'giu'), keys };
}

export function startsWithAny(words: Set<string>, prefix: string): boolean {
  for (const w of words) if (w.startsWith(prefix)) return true;
  return false;
}

/**
 * The known word one edit away (two for long words: a letter added, dropped, changed or two swapped);
 * the first in order on ties. A name (`isName`) only one edit away: brand names lie close together,
 * and 'clearbit' is another company, not a misspelt 'clearout'.
 */
export function closest(word: string, known: string[], isName: (k: string) => boolean = () => false): string | null {
  const max = word.length >= 7 ? 2 : 1;
  let best: string | null = null;
  let bestDistance = max + 1;
  for (const k of known) {
    const most = Math.min(isName(k) ? 1 : max, bestDistance);
    if (Math.abs(k.length - word.length) > most || k.length < 3) continue;
    const d = editDistance(word, k, most);
    if (d <= most && (d < bestDistance || (best !== null && k < best))) {
      best = k;
      bestDistance = d;
    }
  }
  return best;
}

/** Damerau-Levenshtein (optimal string alignment), giving up once every path exceeds `cap` */
function editDistance(a: string, b: string, cap: number): number {
  let prev2: number[] = [];
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    let low = i;
    for (let j = 1; j <= b.length; j++) {
      let d = Math.min(prev[j] + 1, row[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, prev2[j - 2] + 1);
      row.push(d);
      low = Math.min(low, d);
    }
    if (low > cap) return cap + 1;
    prev2 = prev;
    prev = row;
  }
  return prev[b.length];
}

/** words grouped by first letter, in order: a misspelling seldom changes the first */
export function byFirstLetter(words: Iterable<string>): Map<string, string[]> {
  const groups = new Map<string, string[]>();
  for (const w of [...words].sort()) {
    const list = groups.get(w[0]);
    if (list) list.push(w);
    else groups.set(w[0], [w]);
  }
  return groups;
}
