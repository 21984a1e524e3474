// The two FlexSearch indexes of catalog search (language/search.ts ranks over them): their fields, the
// document each row and each capability's vocabulary becomes, and the build's export of both, which
// the runtime and the browser import instead of indexing at start.
import FlexSearch from 'flexsearch';
import type { CapabilityDoc, SearchRow } from './types.ts';
import { searchEncoder, sentenceEncoder } from './encoder.ts';

export const ROW_FIELDS = ['name', 'capability', 'provider_display', 'summary', 'terms'] as const;
export type RowField = (typeof ROW_FIELDS)[number];
/** weight of a capability-vocabulary field when a query term matches it: for a term the caller wants, and one they have */
export const CAP_FIELDS = {
  job: { wanted: 1, had: 0.3 },
  gets: { wanted: 0.8, had: 0.3 },
  says: { wanted: 0.6, had: 0.3 },
  has: { wanted: 0.3, had: 0.8 },
} as const;
export type CapField = keyof typeof CAP_FIELDS;

// A half-typed word matches the start of a name, capability, term or provider ('zerobou'); summaries
// match whole words only: their every prefix was 40% of the index (in the heap and the dashboard's download).
export const rowOptions = () => ({
  encoder: searchEncoder,
  document: {
    id: 'i',
    index: ROW_FIELDS.map((field) => (field === 'summary' ? { field, tokenize: 'strict' } : { field, tokenize: 'forward' })),
  },
});
// Whole words only: a short stem ('sa' of 'saas') must not match the start of another ('same'). One
// score slot: holdersOf asks for every match and weighs them by field, never by place in the field.
export const capOptions = () => ({
  encoder: searchEncoder,
  document: { id: 'i', index: Object.keys(CAP_FIELDS).map((field) => ({ field, tokenize: 'strict', resolution: 1 })) },
});

export interface DocIndex<F extends string> {
  add(doc: Record<string, unknown>): void;
  search(q: string, opts: { limit: number; suggest?: boolean }): Array<{ field: F; result: number[] }>;
  export(handler: (key: string, data: string) => void): Promise<void> | void;
  import(key: string, data: string): void;
}
export const newIndex = <F extends string>(options: object): DocIndex<F> =>
  new (FlexSearch as unknown as { Document: new (o: object) => DocIndex<F> }).Document(options);

const rowDoc = (r: SearchRow, i: number) => ({
  i,
  name: r.name,
  capability: r.capability.replaceAll('.', ' '),
  provider_display: `${r.provider_display} ${r.provider}`,
  summary: r.summary,
  terms: (r.terms ?? []).join(' '),
});
/** A capability's job and sayings lose the words for what it takes ('reverse email lookup' is not a job of finding emails). */
const withoutHad = (texts: string[], had: Set<string>) =>
  texts
    .join(' ')
    .split(/[\s.,;:!?()]+/)
    .filter((w) => !had.has(sentenceEncoder.encode(w)[0] ?? ''))
    .join(' ');
export const capDoc = (c: CapabilityDoc, i: number) => {
  const v = c.vocabulary;
  const had = new Set(Object.entries(v.has).flatMap(([field, words]) => sentenceEncoder.encode([field.replaceAll('_', ' '), ...words].join(' '))));
  for (const w of sentenceEncoder.encode(Object.values(v.gets).flat().join(' '))) had.delete(w);
  return {
    i,
    job: withoutHad([c.capability.replaceAll('.', ' '), ...v.terms], had),
    says: withoutHad([c.description, ...v.phrasings], had),
    gets: Object.entries(v.gets)
      .flatMap(([field, words]) => [field.replaceAll('_', ' '), ...words])
      .join(' '),
    has: Object.entries(v.has)
      .flatMap(([field, words]) => [field.replaceAll('_', ' '), ...words])
      .join(' '),
  };
};

async function dump(index: DocIndex<string>): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  await index.export((key, data) => {
    if (data !== undefined) out[key] = data;
  });
  return Object.fromEntries(Object.entries(out).sort(([a], [b]) => a.localeCompare(b)));
}

export interface SearchIndexDump {
  rows: Record<string, string>;
  capabilities: Record<string, string>;
}

/** Build side: index every row and every capability's vocabulary, return both exported as JSON-able objects. */
export async function exportSearchIndex(rows: SearchRow[], capabilities: CapabilityDoc[]): Promise<SearchIndexDump> {
  const rowIndex = newIndex<RowField>(rowOptions());
  rows.forEach((r, i) => rowIndex.add(rowDoc(r, i)));
  const capIndex = newIndex<CapField>(capOptions());
  capabilities.forEach((c, i) => capIndex.add(capDoc(c, i)));
  return { rows: await dump(rowIndex), capabilities: await dump(capIndex) };
}
