// The top level is one stack: language/ (the catalog language) at the bottom, build/ on it, runtime/
// on both; sandbox/ stands beside them on language/ alone; demo/ joins runtime and sandbox, and cli/
// (the command line) sits on top of everything but the sandbox. An import running back up, or a cycle
// between files, fails here, so the layering cannot drift one import at a time. Inside runtime/ the
// folders are layers of their own (RUNTIME_MAY_IMPORT), and HTTP stays in its two top ones.
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
  demo: ['language', 'build', 'runtime', 'sandbox', 'demo'],
  // the command line: a client of a running svc, and the launcher of serve, demo and build
  cli: ['language', 'build', 'runtime', 'demo', 'cli'],
};

/**
 * runtime/'s folders, bottom to top, and which each may import from (itself included): config/ and
 * util/ at the bottom; state/, the money on it, the router (plain dependencies, plain request data),
 * the catalog reads; the services (feedback/, find/, hub/, batch/, mcp/) with the context the hub is
 * given; then http/ (the h3 app's parts, the Node server, errors -> answers), routes/ and serve/.
 */
const BASE = ['util', 'config', 'state'];
const BELOW_SERVICES = [...BASE, 'money', 'router', 'catalog'];
const RUNTIME_MAY_IMPORT: Record<string, string[]> = {
  util: ['util'],
  config: ['util', 'config'],
  state: BASE,
  money: [...BASE, 'money'],
  router: [...BASE, 'money', 'router'],
  catalog: BELOW_SERVICES,
  feedback: [...BASE, 'feedback'],
  find: [...BELOW_SERVICES, 'find'],
  context: [...BELOW_SERVICES, 'feedback', 'context'],
  hub: [...BELOW_SERVICES, 'feedback', 'context', 'hub'],
  batch: [...BELOW_SERVICES, 'batch'],
  mcp: [...BELOW_SERVICES, 'feedback', 'context', 'hub', 'mcp'],
  http: [...BELOW_SERVICES, 'feedback', 'context', 'http'],
  routes: [...BELOW_SERVICES, 'feedback', 'find', 'context', 'hub', 'batch', 'mcp', 'http', 'routes'],
  serve: [...BELOW_SERVICES, 'feedback', 'find', 'context', 'hub', 'batch', 'mcp', 'http', 'routes', 'serve'],
};
/** the folders that speak HTTP; everything below them takes plain data and throws a plain StatusError */
const HTTP_LAYERS = ['http', 'routes', 'serve'];

const IMPORT = /(?:^|\n)\s*(?:import|export)\b[^'"]*?from\s*['"]([^'"]+)['"]|(?:^|\n)\s*import\s*['"]([^'"]+)['"]|\bimport\(\s*['"]([^'"]+)['"]\s*\)/g;

function tsFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? tsFiles(p) : p.endsWith('.ts') ? [p] : [];
  });
}

const specifiers = (file: string) => [...readFileSync(join(ROOT, file), 'utf8').matchAll(IMPORT)].map((m) => m[1] ?? m[2] ?? m[3]);

/** repo-relative file -> repo-relative files it imports (relative specifiers only; packages are not layers) */
function graph(): Map<string, string[]> {
  const g = new Map<string, string[]>();
  for (const top of Object.keys(MAY_IMPORT)) {
    for (const file of tsFiles(join(ROOT, top)).map((f) => relative(ROOT, f))) {
      g.set(
        file,
        specifiers(file)
          .filter((s) => s.startsWith('.'))
          .map((s) => relative(ROOT, resolve(dirname(join(ROOT, file)), s))),
      );
    }
  }
  return g;
}

const topOf = (file: string) => file.split('/')[0];
/** the runtime folder a runtime/ file is in ('' for a file at runtime/'s top) */
const layerOf = (file: string) => (file.split('/').length > 2 ? file.split('/')[1] : '');

describe('import boundaries', () => {
  const g = graph();

  it('finds the files it checks', () => {
    for (const top of Object.keys(MAY_IMPORT))
      expect(
        [...g.keys()].some((f) => topOf(f) === top),
        top,
      ).toBe(true);
  });

  it('no folder imports one above it or beside it', () => {
    // a file at the top (package.json) is data, not a layer
    const wrong = [...g].flatMap(([file, targets]) =>
      targets.filter((t) => t.includes('/') && !MAY_IMPORT[topOf(file)].includes(topOf(t))).map((t) => `${file} -> ${t}`),
    );
    expect(wrong).toEqual([]);
  });

  it('no cycle between files', () => {
    const state = new Map<string, 'open' | 'done'>();
    const cycles: string[] = [];
    const visit = (f: string, path: string[]): void => {
      if (state.get(f) === 'done') return;
      if (state.get(f) === 'open') {
        cycles.push([...path.slice(path.indexOf(f)), f].join(' -> '));
        return;
      }
      state.set(f, 'open');
      for (const t of g.get(f) ?? []) visit(t, [...path, f]);
      state.set(f, 'done');
    };
    for (const f of g.keys()) visit(f, []);
    expect(cycles).toEqual([]);
  });
});

describe("runtime/'s layers", () => {
  const g = graph();
  const runtimeFiles = [...g.keys()].filter((f) => topOf(f) === 'runtime');

  it('every file is in a folder the table places, and every folder in the table exists', () => {
    expect(runtimeFiles.filter((f) => !Object.hasOwn(RUNTIME_MAY_IMPORT, layerOf(f)))).toEqual([]);
    const folders = readdirSync(join(ROOT, 'runtime'))
      .filter((f) => statSync(join(ROOT, 'runtime', f)).isDirectory())
      .sort();
    expect(Object.keys(RUNTIME_MAY_IMPORT).sort()).toEqual(folders);
  });

  it('no folder imports one above it or beside it', () => {
    const wrong = runtimeFiles.flatMap((file) =>
      g
        .get(file)!
        .filter((t) => topOf(t) === 'runtime' && !RUNTIME_MAY_IMPORT[layerOf(file)].includes(layerOf(t)))
        .map((t) => `${file} -> ${t}`),
    );
    expect(wrong).toEqual([]);
  });

  it('below http/, nothing imports h3', () => {
    const below = runtimeFiles.filter((f) => !HTTP_LAYERS.includes(layerOf(f)));
    expect(below.length).toBeGreaterThan(100);
    expect(below.filter((f) => specifiers(f).some((s) => s === 'h3' || s.startsWith('h3/')))).toEqual([]);
  });

  it('the router and state take plain dependencies: no AppContext, no h3 event', () => {
    const plain = runtimeFiles.filter((f) => ['router', 'state'].includes(layerOf(f)));
    expect(plain.filter((f) => /\bAppContext\b|\bH3Event\b/.test(readFileSync(join(ROOT, f), 'utf8')))).toEqual([]);
  });

  it('state holds no feedback or catalog logic', () => {
    const wrong = runtimeFiles
      .filter((f) => layerOf(f) === 'state')
      .flatMap((file) =>
        g
          .get(file)!
          .filter((t) => ['feedback', 'catalog'].includes(layerOf(t)))
          .map((t) => `${file} -> ${t}`),
      );
    expect(wrong).toEqual([]);
  });
});

describe("the README's layout table", () => {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const table = readme.slice(readme.indexOf('| path | what lives there |'), readme.indexOf('## Decisions where the spec is silent'));
  const listed = [...table.matchAll(/^\| `([^`]+)\/` \|/gm)].map((m) => m[1]).sort();

  it('lists every top-level folder of the repository, and only folders that exist', () => {
    const ignored = new Set(
      readFileSync(join(ROOT, '.gitignore'), 'utf8')
        .split('\n')
        .map((l) => l.trim().replace(/^\/|\/$/g, '')),
    );
    const folders = readdirSync(ROOT)
      .filter((f) => !f.startsWith('.') && statSync(join(ROOT, f)).isDirectory() && !ignored.has(f))
      .sort();
    expect(listed).toEqual(folders);
    for (const f of listed) expect(existsSync(join(ROOT, f)), f).toBe(true);
  });
});
