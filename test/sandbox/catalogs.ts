// The catalogs the sandbox contract suite runs over: the fixture (built here) and the real one (when
// built), each with the request mappings of its source (runtime.json may not carry them).
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadCatalog } from '../../build/load.ts';
import { buildCatalog } from '../../build/pipeline.ts';
import type { RequestSrc } from '../../language/types.ts';
import { loadSandboxCatalog, type SandboxCatalog } from '../../sandbox/index.ts';
import { FIXTURE_SRC, REAL_DIST, ROOT } from '../helpers/paths.ts';

export interface ChildSource {
  request: RequestSrc | null;
  accepts: string[][];
}

export interface SuiteCatalog {
  label: string;
  runtime: SandboxCatalog;
  sources: Map<string, ChildSource>;
}

function sourcesOf(src: string): Map<string, ChildSource> {
  const out = new Map<string, ChildSource>();
  for (const { data } of loadCatalog(src).providers) {
    for (const op of data.operations ?? []) out.set(op.id, { request: op.request ?? null, accepts: op.accepts ?? [] });
  }
  return out;
}

/**
 * runtime.json does not carry the children's request mappings yet; the router needs them too, and the
 * sandbox reads `request` when present (exact subjects, and telling apart operations that share a
 * path). The real catalog runs with them added from its source; the fixture runs as emitted.
 */
function withRequests(runtime: SandboxCatalog, sources: Map<string, ChildSource>): SandboxCatalog {
  const operations = Object.fromEntries(
    Object.entries(runtime.operations).map(([id, op]) => {
      const request = sources.get(id)?.request;
      return [id, 'request' in op || !request ? op : { ...op, request }];
    }),
  );
  return { ...runtime, operations };
}

export async function suiteCatalogs(): Promise<SuiteCatalog[]> {
  const out = mkdtempSync(join(tmpdir(), 'svc-sandbox-fixture-'));
  const built = await buildCatalog({ src: FIXTURE_SRC, out: join(out, 'catalog') });
  if (built.errors.length) throw new Error(`fixture catalog build failed:\n${built.errors.join('\n')}`);
  const list: SuiteCatalog[] = [{ label: 'fixture', runtime: loadSandboxCatalog(out), sources: sourcesOf(FIXTURE_SRC) }];
  const realDist = [REAL_DIST, join(ROOT, 'dist')].find((d) => existsSync(join(d, 'catalog', 'runtime.json')));
  if (realDist) {
    const runtime = loadSandboxCatalog(realDist);
    const src = join(ROOT, 'catalog-src');
    const sources = sourcesOf(src);
    if (Object.keys(runtime.providers).some((p) => !list[0].runtime.providers[p]))
      list.push({ label: 'real', runtime: withRequests(runtime, sources), sources });
  }
  return list;
}
