// The top level is one stack: language/ (the catalog language) at the bottom, build/ on it, runtime/
// on both; sandbox/ stands beside them on language/ alone. An import running back up, or a cycle
// between files, fails here, so the layering cannot drift one import at a time.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/paths.ts';

/** which top-level folders each folder may import from (itself included) */
const MAY_IMPORT: Record<string, string[]> = {
  language: ['language'],
  build: ['language', 'build'],
  runtime: ['language', 'build', 'runtime'],
  sandbox: ['language', 'sandbox'],
};

const IMPORT = /(?:^|\n)\s*(?:import|export)\b[^'"]*?from\s*['"]([^'"]+)['"]|(?:^|\n)\s*import\s*['"]([^'"]+)['"]|\bimport\(\s*['"]([^'"]+)['"]\s*\)/g;

function tsFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? tsFiles(p) : p.endsWith('.ts') ? [p] : [];
  });
}

/** repo-relative file -> repo-relative files it imports (relative specifiers only; packages are not layers) */
function graph(): Map<string, string[]> {
  const g = new Map<string, string[]>();
  for (const top of Object.keys(MAY_IMPORT)) {
    for (const file of tsFiles(join(ROOT, top))) {
      const text = readFileSync(file, 'utf8');
      const targets = [...text.matchAll(IMPORT)]
        .map((m) => m[1] ?? m[2] ?? m[3])
        .filter((s) => s.startsWith('.'))
        .map((s) => relative(ROOT, resolve(dirname(file), s)));
      g.set(relative(ROOT, file), targets);
    }
  }
  return g;
}

const topOf = (file: string) => file.split('/')[0];

describe('import boundaries', () => {
  const g = graph();

  it('finds the files it checks', () => {
    for (const top of Object.keys(MAY_IMPORT)) expect([...g.keys()].some((f) => topOf(f) === top), top).toBe(true);
  });

  it('no folder imports one above it or beside it', () => {
    // a file at the top (package.json) is data, not a layer
    const wrong = [...g].flatMap(([file, targets]) => targets.filter((t) => t.includes('/') && !MAY_IMPORT[topOf(file)].includes(topOf(t))).map((t) => `${file} -> ${t}`));
    expect(wrong).toEqual([]);
  });

  it('no cycle between files', () => {
    const state = new Map<string, 'open' | 'done'>();
    const cycles: string[] = [];
    const visit = (f: string, path: string[]): void => {
      if (state.get(f) === 'done') return;
      if (state.get(f) === 'open') { cycles.push([...path.slice(path.indexOf(f)), f].join(' -> ')); return; }
      state.set(f, 'open');
      for (const t of g.get(f) ?? []) visit(t, [...path, f]);
      state.set(f, 'done');
    };
    for (const f of g.keys()) visit(f, []);
    expect(cycles).toEqual([]);
  });
});

describe("the README's layout table", () => {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const table = readme.slice(readme.indexOf('| path | what lives there |'), readme.indexOf('## Decisions where the spec is silent'));
  const listed = [...table.matchAll(/^\| `([^`]+)\/` \|/gm)].map((m) => m[1]).sort();

  it('lists every top-level folder of the repository, and only folders that exist', () => {
    const ignored = new Set(readFileSync(join(ROOT, '.gitignore'), 'utf8').split('\n').map((l) => l.trim().replace(/^\/|\/$/g, '')));
    const folders = readdirSync(ROOT).filter((f) => !f.startsWith('.') && statSync(join(ROOT, f)).isDirectory() && !ignored.has(f)).sort();
    expect(listed).toEqual(folders);
    for (const f of listed) expect(existsSync(join(ROOT, f)), f).toBe(true);
  });
});
