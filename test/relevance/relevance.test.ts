// Relevance over the real catalog: needs phrased as people ask them, against GET /catalog/search
// (top-1, recall@5) and GET /catalog/find (a right answer among the first five kept rows). Two sets:
// phrasings.yaml (the routed capabilities) and catalog-phrasings.yaml (every capability the catalog
// has, routed or not, written before their vocabularies). Prints every miss, so a change that loses
// ground shows where.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { REAL_DIST } from '../helpers/paths.ts';
import { servedRealCatalog } from './served.ts';

interface Case {
  q: string;
  answers: string[];
}
const casesIn = (file: string) => parse(readFileSync(join(import.meta.dirname, file), 'utf8')) as Case[];
const built = <T>(name: string) => JSON.parse(readFileSync(join(REAL_DIST, 'catalog', 'search', name), 'utf8')) as T;
const rows = () => built<Array<{ capability: string; kind: string }>>('rows.json');

const server = servedRealCatalog();

const capabilitiesOf = (kept: Array<{ endpoint_id: string }>, capabilityOf: Map<string, string>) => kept.map((r) => capabilityOf.get(r.endpoint_id) ?? '?');

function report(name: string, misses: string[], total: number): number {
  const share = (total - misses.length) / total;
  process.stdout.write(`${name}: ${(share * 100).toFixed(0)}% (${total - misses.length}/${total})\n${misses.map((m) => `  miss: ${m}\n`).join('')}`);
  return share;
}

const sets = [
  { file: 'phrasings.yaml', covers: 'routed', perCapability: 1 },
  { file: 'catalog-phrasings.yaml', covers: 'every', perCapability: 2 },
] as const;

describe('every capability has words', () => {
  it('each capability of the built catalog has a vocabulary that search and the finder read', () => {
    const docs = new Set(built<Array<{ capability: string }>>('capabilities.json').map((d) => d.capability));
    expect([...new Set(rows().map((r) => r.capability))].filter((c) => !docs.has(c))).toEqual([]);
  });
});

describe.each(sets)('relevance of search and the finder: $file', ({ file, covers, perCapability }) => {
  const cases = casesIn(file);

  it(`the set is large and answers each ${covers} capability at least ${perCapability} time(s)`, () => {
    expect(cases.length).toBeGreaterThanOrEqual(80);
    const wanted = new Set(
      rows()
        .filter((r) => covers === 'every' || r.kind === 'routed')
        .map((r) => r.capability),
    );
    const times = new Map<string, number>();
    for (const c of cases) for (const a of new Set(c.answers)) times.set(a, (times.get(a) ?? 0) + 1);
    expect([...wanted].filter((c) => (times.get(c) ?? 0) < perCapability)).toEqual([]);
  });

  it('search: recall@5 >= 95%, top-1 >= 95%', async () => {
    const top1: string[] = [];
    const top5: string[] = [];
    for (const { q, answers } of cases) {
      const { results } = (await (await fetch(`${server.url}/catalog/search?q=${encodeURIComponent(q)}&limit=5`)).json()) as {
        results: Array<{ capability: string }>;
      };
      const got = results.map((r) => r.capability);
      const line = `${q} -> ${got.join(', ') || 'nothing'} (want ${answers.join(' | ')})`;
      if (!answers.includes(got[0])) top1.push(line);
      if (!got.some((c) => answers.includes(c))) top5.push(line);
    }
    const recall = report(`${file} search recall@5`, top5, cases.length);
    const first = report(`${file} search top-1`, top1, cases.length);
    expect(recall).toBeGreaterThanOrEqual(0.95);
    expect(first).toBeGreaterThanOrEqual(0.95);
  });

  it('finder: the first five kept rows hold a right answer >= 95%', async () => {
    const misses: string[] = [];
    for (const { q, answers } of cases) {
      const text = await (await fetch(`${server.url}/catalog/find?q=${encodeURIComponent(q)}`)).text();
      const [candidates, judged] = text
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l));
      const capabilityOf = new Map<string, string>(
        candidates.candidates.map((c: { endpoint_id: string; capability: string }) => [c.endpoint_id, c.capability]),
      );
      const got = capabilitiesOf(judged?.kept?.slice(0, 5) ?? [], capabilityOf);
      if (!got.some((c) => answers.includes(c))) misses.push(`${q} -> ${got.join(', ') || 'nothing kept'} (want ${answers.join(' | ')}; ${judged?.verdict})`);
    }
    expect(report(`${file} finder kept first five`, misses, cases.length)).toBeGreaterThanOrEqual(0.95);
  });
});
