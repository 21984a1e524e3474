// Hash of everything a build reads (catalog-src/ and the code that shapes its output), so `npm start`
// can tell a stale build. Names are hashed relative to their input, so moving the checkout changes nothing.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';

function files(path: string): string[] {
  if (!statSync(path).isDirectory()) return [path];
  const walk = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true })
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
      .flatMap((e) => (e.isDirectory() ? walk(join(dir, e.name)) : [join(dir, e.name)]));
  return walk(path);
}

/** `inputs`: directories or single files */
export function sourceHash(inputs: string[]): string {
  const h = createHash('sha256');
  inputs.forEach((input, i) => {
    for (const f of files(input))
      h.update(`${i}:${relative(input, f)}`)
        .update('\0')
        .update(readFileSync(f))
        .update('\0');
  });
  return h.digest('hex').slice(0, 16);
}

/**
 * Every input file's name, size and modification time, hashed: no file is read, so it is cheap. The
 * same stamp means untouched inputs, which still hash as they did (git's index works so).
 */
export function statStamp(inputs: string[]): string {
  const h = createHash('sha256');
  inputs.forEach((input, i) => {
    for (const f of files(input)) {
      const s = statSync(f);
      h.update(`${i}:${relative(input, f)}\0${s.size}\0${s.mtimeMs}\0`);
    }
  });
  return h.digest('hex').slice(0, 16);
}

/** The folder holding package.json above this module: build/ from the sources, dist-server/ once compiled. */
export function packageRoot(from = import.meta.dirname): string {
  return existsSync(join(from, 'package.json')) || dirname(from) === from ? from : packageRoot(dirname(from));
}

/** Code whose change changes the output: the build itself and the catalog language it runs (mappings, prices, paths, the search index). */
const CODE = ['build', 'language'].map((d) => join(packageRoot(), d));

/** What a build of `src` would be made from, hashed: a build is stale when this differs. */
export const catalogSourceHash = (src: string): string => sourceHash([src, ...CODE]);
/** The stat stamp of the same inputs */
export const catalogSourceStamp = (src: string): string => statStamp([src, ...CODE]);
