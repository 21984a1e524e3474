// Relevance over the real catalog: needs phrased as people ask them (phrasings.yaml), against
// GET /catalog/search (top-1, recall@5) and GET /catalog/find (a right answer among the first five
// kept rows). Prints every miss, so a change that loses ground shows where.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { REAL_DIST } from '../helpers/paths.ts';
import { servedRealCatalog } from './served.ts';

interface Case { q: string; answers: string[] }
const cases = parse(readFileSync(join(import.meta.dirname, 'phrasings.yaml'), 'utf8')) as Case[];

const server = servedRealCatalog();

const capabilitiesOf = (rows: Array<{ endpoint_id: string }>, capabilityOf: Map<string, string>) => rows.map((r) => capabilityOf.get(r.endpoint_id) ?? '?');

function report(name: string, misses: string[], total: number): number {
  const share = (total - misses.length) / total;
  process.stdout.write(`${name}: ${(share * 100).toFixed(0)}% (${total - misses.length}/${total})\n${misses.map((m) => `  miss: ${m}\n`).join('')}`);
  return share;
}

describe('relevance of search and the finder', () => {
  it('the set is large and covers every routed capability', async () => {
    expect(cases.length).toBeGreaterThanOrEqual(80);
    const docs = JSON.parse(readFileSync(join(REAL_DIST, 'catalog', 'search', 'capabilities.json'), 'utf8')) as Array<{ capability: string }>;
    const answered = new Set(cases.flatMap((c) => c.answers));
    expect(docs.map((d) => d.capability).filter((c) => !answered.has(c))).toEqual([]);
  });

  it('search: recall@5 >= 95%, top-1 >= 85%', async () => {
    const top1: string[] = [];
    const top5: string[] = [];
    for (const { q, answers } of cases) {
      const { results } = (await (await fetch(`${server.url}/catalog/search?q=${encodeURIComponent(q)}&limit=5`)).json()) as { results: Array<{ capability: string }> };
      const got = results.map((r) => r.capability);
      const line = `${q} -> ${got.join(', ') || 'nothing'} (want ${answers.join(' | ')})`;
      if (!answers.includes(got[0])) top1.push(line);
      if (!got.some((c) => answers.includes(c))) top5.push(line);
    }
    const recall = report('search recall@5', top5, cases.length);
    const first = report('search top-1', top1, cases.length);
    expect(recall).toBeGreaterThanOrEqual(0.95);
    expect(first).toBeGreaterThanOrEqual(0.85);
  });

  it('finder: the first five kept rows hold a right answer >= 95%', async () => {
    const misses: string[] = [];
    for (const { q, answers } of cases) {
      const text = await (await fetch(`${server.url}/catalog/find?q=${encodeURIComponent(q)}`)).text();
      const [candidates, judged] = text.trim().split('\n').map((l) => JSON.parse(l));
      const capabilityOf = new Map<string, string>(candidates.candidates.map((c: { endpoint_id: string; capability: string }) => [c.endpoint_id, c.capability]));
      const got = capabilitiesOf(judged?.kept?.slice(0, 5) ?? [], capabilityOf);
      if (!got.some((c) => answers.includes(c))) misses.push(`${q} -> ${got.join(', ') || 'nothing kept'} (want ${answers.join(' | ')}; ${judged?.verdict})`);
    }
    expect(report('finder kept first five', misses, cases.length)).toBeGreaterThanOrEqual(0.95);
  });
});
