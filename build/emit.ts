// Last end of the pipeline: write dist/catalog/ (to a temporary folder, then swapped in whole).
import { createHash } from 'node:crypto';
import { mkdirSync, renameSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Resolved } from './resolve.ts';
import { GENERATED } from './generated.ts';
import { exportSearchIndex } from '../language/search-index.ts';
import { shelfHints } from '../language/shelves.ts';
import { runtimeWithLayout } from './runtime-layout.ts';

/** Writes the catalog and returns its content hash (of every byte written but the manifest). */
export async function emitCatalog(r: Resolved, out: string, sourceHash: string, log: (m: string) => void): Promise<string> {
  const tmp = `${out}.tmp-${process.pid}`;
  rmSync(tmp, { recursive: true, force: true });
  const hash = createHash('sha256');
  const dirs = new Set<string>();
  const write = (rel: string, data: unknown) => {
    const path = join(tmp, rel);
    if (!dirs.has(dirname(path))) {
      mkdirSync(dirname(path), { recursive: true });
      dirs.add(dirname(path));
    }
    const text = typeof data === 'string' ? data : JSON.stringify(data);
    if (rel !== '.source-hash' && rel !== 'manifest.json') hash.update(rel).update('\0').update(text).update('\0');
    writeFileSync(path, text);
  };
  write('platforms.json', {
    platforms: r.platforms,
    hints: ['GET /catalog/platforms/{slug} lists one shelf by capability', 'GET /catalog/search?q=… finds operations (svc search WORDS in a terminal)'],
  });
  for (const s of r.shelves) {
    write(`platforms/${s.slug}.json`, {
      slug: s.slug,
      label: s.label,
      description: s.description,
      capabilities: s.capabilities,
      hidden_count: s.hidden_count,
      hints: shelfHints(s.slug, s.hidden_count, false),
    });
    write(`platforms/${s.slug}.all.json`, {
      slug: s.slug,
      label: s.label,
      description: s.description,
      capabilities: s.all,
      hidden_count: s.hidden_count,
      hints: shelfHints(s.slug, s.hidden_count, true),
    });
  }
  let n = 0;
  for (const e of r.entries) {
    write(`endpoints/${e.endpoint.id}.json`, e);
    if (++n % 2000 === 0) log(`build: wrote ${n}/${r.entries.length} endpoints`);
  }
  write('search/rows.json', r.searchRows);
  write('search/capabilities.json', r.searchCapabilities);
  write('search/finder.json', r.finder);
  write('search/index.json', await exportSearchIndex(r.searchRows, r.searchCapabilities));
  const runtime = runtimeWithLayout(r.runtime);
  write('runtime.json', runtime.text);
  write('runtime-at.json', runtime.layout);
  write('examples.json', r.examples);
  write('COVERAGE.md', r.coverage);
  write('.source-hash', sourceHash);
  const contentHash = hash.digest('hex').slice(0, 16);
  write('manifest.json', { _generated: GENERATED, hash: contentHash, ...r.manifest });
  if (existsSync(out)) rmSync(out, { recursive: true, force: true });
  mkdirSync(dirname(out), { recursive: true });
  renameSync(tmp, out);
  return contentHash;
}
