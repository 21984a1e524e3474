// Finder benchmark at 10,000 operations (issue: search and the job finder): time to the candidates
// line and to the judged line of GET /catalog/find (local judge), against GET /catalog/search in the
// same run, over loopback HTTP; and search throughput against a raw FlexSearch loop.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateCatalog } from './generate-catalog.ts';
import { buildCatalog } from '../build/pipeline.ts';
import { appContext, serve } from '../test/helpers/server.ts';
import { fmt, line, median, searchThroughput } from './lib.ts';

const work = mkdtempSync(join(tmpdir(), 'svc-bench-find-'));
const src = join(work, 'src');
const dist = join(work, 'dist');
const ops = generateCatalog(src, 500);
const built = await buildCatalog({ src, out: join(dist, 'catalog') });
if (built.errors.length) throw new Error(built.errors.slice(0, 5).join('\n'));
const ctx = await appContext(dist, { SVC_FIND_RATE_PER_MINUTE: '1000000' });
const server = await serve(ctx);

// Plain words, sentences with literals and misspellings: what callers send.
const queries = [
  'email verify',
  'will this email bounce',
  'is jane@acme.com deliverable',
  'company lookup',
  'phone',
  'people search enrich',
  'tech news funding',
  'provider 42',
  'kalo mine',
  'verify address',
  'check deliverability for https://www.linkedin.com/in/jane',
  'verfy adress',
];
process.stdout.write(`finder benchmarks (${ops} generated operations, loopback HTTP; medians)\n`);

/** ms to the whole search answer; ms to the first and second NDJSON lines of the finder */
async function searchMs(q: string): Promise<number> {
  const t = performance.now();
  await (await fetch(`${server.url}/catalog/search?q=${encodeURIComponent(q)}`)).text();
  return performance.now() - t;
}
async function findMs(q: string): Promise<[number, number]> {
  const t = performance.now();
  const reader = (await fetch(`${server.url}/catalog/find?q=${encodeURIComponent(q)}`)).body!.getReader();
  const at: number[] = [];
  let text = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    text += new TextDecoder().decode(value);
    while (at.length < text.split('\n').length - 1) at.push(performance.now() - t);
  }
  if (at.length < 2) throw new Error(`the finder sent ${at.length} line(s) for '${q}'`);
  return [at[0], at[1]];
}

const search: number[] = [];
const candidates: number[] = [];
const judged: number[] = [];
for (let i = 0; i < 1500; i++) {
  const q = queries[i % queries.length];
  const s = await searchMs(q);
  const [c, j] = await findMs(q);
  if (i < 300) continue; // warm-up
  search.push(s);
  candidates.push(c);
  judged.push(j);
}
line('GET /catalog/search, whole answer', `${fmt(median(search))} ms`);
line('GET /catalog/find, candidates line', `${fmt(median(candidates))} ms`, '< 20 ms', median(candidates) < 20);
line('GET /catalog/find, judged line (local judge)', `${fmt(median(judged))} ms`, '< 30 ms', median(judged) < 30);
line('candidates line / search answer', `${fmt(median(candidates) / median(search))}x`);

const { rawQps, oursQps } = searchThroughput(await ctx.catalog.search(), queries);
line('raw FlexSearch query loop', `${Math.round(rawQps)} q/CPU-s`);
line('svc search (FlexSearch + ranking) loop', `${Math.round(oursQps)} q/CPU-s`);
line('svc search throughput / raw FlexSearch', `${fmt(oursQps / rawQps)}x`, '>= 0.8x', oursQps / rawQps >= 0.8);

await server.close();
rmSync(work, { recursive: true, force: true });
