// Catalog benchmarks at 10,000 operations (issue: catalog build pipeline), each against a baseline
// measured in this run: build scaling, search latency and throughput, entry reads, memory.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateCatalog } from './generate-catalog.ts';
import { buildCatalog } from '../build/pipeline.ts';
import { testRuntime } from '../test/helpers/server.ts';
import { bareServer, fmt, line, load, median, searchThroughput } from './lib.ts';

const work = mkdtempSync(join(tmpdir(), 'svc-bench-'));
const seconds = Number(process.env.BENCH_SECONDS ?? 5);

async function timedBuild(providers: number): Promise<{ ms: number; dist: string; ops: number }> {
  const src = join(work, `src-${providers}`);
  const dist = join(work, `dist-${providers}`);
  const ops = generateCatalog(src, providers);
  const t = performance.now();
  const r = await buildCatalog({ src, out: join(dist, 'catalog') });
  if (r.errors.length) throw new Error(r.errors.slice(0, 5).join('\n'));
  return { ms: performance.now() - t, dist, ops };
}

process.stdout.write('catalog benchmarks (generated catalogs; each ratio is measured in this run)\n');

// (a) build time and how it scales when the catalog doubles
const small = await timedBuild(500);
const big = await timedBuild(1000);
line(`(a) build ${small.ops} operations / 500 providers`, `${fmt(small.ms / 1000)} s`, '< 15 s', small.ms < 15_000);
line(`(a) build ${big.ops} operations / 1000 providers`, `${fmt(big.ms / 1000)} s`);
line('(a) build time ratio when the catalog doubles', `${fmt(big.ms / small.ms)}x`, '<= 2.2x', big.ms / small.ms <= 2.2);
rmSync(join(work, 'src-1000'), { recursive: true, force: true });
rmSync(big.dist, { recursive: true, force: true });

// (b) search: server-side median through the app, and throughput against a raw FlexSearch loop
const { ctx, app, listen } = await testRuntime(small.dist);
const { catalog } = ctx;
const queries = ['email verify', 'company lookup', 'phone', 'people search enrich', 'tech news funding', 'provider 42', 'kalo mine', 'verify address'];
const handlerMs: number[] = [];
for (let i = 0; i < 4000; i++) {
  const t = performance.now();
  await (await app.fetch(new Request(`http://l/catalog/search?q=${encodeURIComponent(queries[i % queries.length])}`))).text();
  if (i >= 500) handlerMs.push(performance.now() - t);
}
line('(b) /catalog/search server-side median at 10k operations', `${fmt(median(handlerMs), 3)} ms`, '< 2 ms', median(handlerMs) < 2);
const { rawQps, oursQps } = searchThroughput(await catalog.search(), queries);
line('(b) raw FlexSearch query loop', `${Math.round(rawQps)} q/CPU-s`);
line('(b) svc search (FlexSearch + ranking) loop', `${Math.round(oursQps)} q/CPU-s`);
line('(b) svc search throughput / raw FlexSearch', `${fmt(oursQps / rawQps)}x`, '>= 0.8x', oursQps / rawQps >= 0.8);

// (c) GET /catalog/endpoints/{id} under autocannon against a bare node:http server of the same bytes
const id = 'gen42.op3';
const listener = await listen(0);
const bare = await bareServer(catalog.endpointBytes(id)!);
const svcUrl = `${listener.url}/catalog/endpoints/${id}`;
await load(svcUrl, { seconds: 1 }); // warm up
const floor = await load(bare.url, { seconds });
const svc = await load(svcUrl, { seconds });
line('(c) bare node:http, preloaded buffer', `${Math.round(floor.rps)} req/s`);
line('(c) svc GET /catalog/endpoints/{id}', `${Math.round(svc.rps)} req/s`);
line('(c) svc / bare throughput', `${fmt(svc.rps / floor.rps)}x`, '>= 0.8x', svc.rps / floor.rps >= 0.8);
await listener.close();
bare.server.close();

// (d) resident memory of a fresh runtime process holding the 10k catalog
const out = execFileSync(process.execPath, ['--expose-gc', '--import', 'tsx', join(import.meta.dirname, 'rss-child.ts'), small.dist], { encoding: 'utf8' });
const rssMb = JSON.parse(out).rss / 1024 / 1024;
line('(d) runtime RSS with 10k operations', `${fmt(rssMb, 0)} MB`, '< 200 MB', rssMb < 200);

rmSync(work, { recursive: true, force: true });
