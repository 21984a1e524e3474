// What live hub tools cost search (issue: the hub as a store): /catalog/search and /catalog/find over
// the real catalog with no tool, then with BENCH_TOOLS live tools (100 by default), in one run. Tools
// are scored per query beside the prebuilt index (runtime/hub/tool-rows.ts), so their cost grows with
// their number; the ratio says how much a store of that size adds to a search.
import { REAL_DIST } from '../test/helpers/paths.ts';
import { routedWorld } from '../test/helpers/routed.ts';
import { linkedinEmailTool } from '../test/hub/tool-files-real.ts';
import { fmt, line, median } from './lib.ts';

const TOOLS = Number(process.env.BENCH_TOOLS ?? 100);
const CALLS = Number(process.env.BENCH_CALLS ?? 2_000);
const queries = [
  'find a verified work email from a LinkedIn URL',
  'email verify',
  'company lookup',
  'phone number of a person',
  'similar companies',
  'youtube comments',
];
const words = ['lead', 'prospect', 'contact', 'account', 'company', 'founder', 'buyer', 'email', 'phone', 'domain'];

// the finder's per-address rate limit would answer most of these calls 429
const w = await routedWorld(REAL_DIST, { creditMicro: 1_000_000_000, env: { SVC_FIND_RATE_PER_MINUTE: String(CALLS * 10) } });

/** the median milliseconds of one GET, over CALLS calls cycling through the queries (the first tenth warms up) */
async function medianMs(path: (q: string) => string): Promise<number> {
  const ms: number[] = [];
  for (let i = 0; i < CALLS; i++) {
    const t = performance.now();
    const r = await fetch(w.url + path(queries[i % queries.length]));
    await r.arrayBuffer();
    if (r.status !== 200) throw new Error(`${path(queries[i % queries.length])} answered ${r.status}`);
    if (i >= CALLS / 10) ms.push(performance.now() - t);
  }
  return median(ms);
}

const search = (q: string) => `/catalog/search?q=${encodeURIComponent(q)}&limit=10`;
const find = (q: string) => `/catalog/find?q=${encodeURIComponent(q)}&limit=10`;
const before = { search: await medianMs(search), find: await medianMs(find) };

for (let n = 0; n < TOOLS; n++) {
  const files = linkedinEmailTool();
  const tool = JSON.parse(files['tool.json']);
  // distinct words per tool, so each is scored and none is a copy the scorer could share
  files['tool.json'] = JSON.stringify({
    ...tool,
    name: `${words[n % words.length]} ${tool.name} ${n}`,
    summary: `${tool.summary} For ${words[(n * 7) % words.length]} lists, batch ${n}.`,
  });
  const published = await w.call('/hub/tools', { tool_id: `bench-tool-${n}`, files });
  if (published.body.status !== 'live') throw new Error(`tool ${n} did not go live: ${JSON.stringify(published.body)}`);
}
const after = { search: await medianMs(search), find: await medianMs(find) };

process.stdout.write(`search with live hub tools (real catalog, ${CALLS} sequential calls each, medians in this run)\n`);
line('/catalog/search, no tool', `${fmt(before.search, 3)} ms`);
line(`/catalog/search, ${TOOLS} live tools`, `${fmt(after.search, 3)} ms`);
line('/catalog/search with tools / without', `${fmt(after.search / before.search)}x`, '<= 1.5x', after.search / before.search <= 1.5);
line('/catalog/find, no tool', `${fmt(before.find, 3)} ms`);
line(`/catalog/find, ${TOOLS} live tools`, `${fmt(after.find, 3)} ms`);
line('/catalog/find with tools / without', `${fmt(after.find / before.find)}x`, '<= 1.5x', after.find / before.find <= 1.5);
await w.close();
