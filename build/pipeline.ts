// The build as a pipeline of pure steps; the file system is read by load (first) and the source hash,
// and written only by emit (last).
import { loadCatalog } from './load.ts';
import { validateCatalog } from './validate.ts';
import { formatError } from './build-error.ts';
import { catalogSourceHash } from './source-hash.ts';
import { resolveCatalog } from './resolve.ts';
import { emitCatalog } from './emit.ts';

export interface BuildOptions {
  src: string;
  /** null: validate only */
  out: string | null;
  only?: Set<string>;
  log?: (message: string) => void;
}

export interface BuildResult {
  errors: string[];
  operations: number;
  providers: number;
}

export async function buildCatalog(opts: BuildOptions): Promise<BuildResult> {
  const log = opts.log ?? (() => {});
  const t0 = performance.now();
  log(`build: loading ${opts.src}`);
  const loaded = loadCatalog(opts.src, opts.only);
  const operations = loaded.providers.reduce((n, p) => n + (p.data.operations?.length ?? 0), 0);
  log(`build: validating ${loaded.providers.length} providers, ${operations} operations, ${loaded.capabilities.length} capabilities`);
  const errors = validateCatalog(loaded).map(formatError);
  if (errors.length || !opts.out) return { errors, operations, providers: loaded.providers.length };
  log('build: resolving siblings, routing plans, call templates');
  const resolved = resolveCatalog(loaded);
  log(`build: writing ${opts.out}`);
  const hash = await emitCatalog(resolved, opts.out, catalogSourceHash(opts.src), log);
  log(`build: done in ${Math.round(performance.now() - t0)} ms (${resolved.manifest.operations} operations, hash ${hash})`);
  return { errors: [], operations: resolved.manifest.operations, providers: resolved.manifest.providers };
}
