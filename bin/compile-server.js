// The runtime compiled to JavaScript, so `npm start` and `npm run demo` run it with plain node in
// one process. Plain JavaScript itself: they call it before anything can run TypeScript. esbuild
// bundles our own modules into one file per entry, sharing chunks (the build's modules as chunks
// loaded only when a catalog is stale), and leaves packages in node_modules to Node.
import { existsSync, mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(import.meta.dirname, '..');
export const SERVER_DIR = join(ROOT, 'dist-server');
/** what the compiled server and demo are made from; a change to any of these makes them stale */
const SOURCES = ['runtime', 'build', 'language', 'demo', 'sandbox', 'package.json', 'package-lock.json'].map((p) => join(ROOT, p));
/** the entries compiled together: `npm start`'s server and `npm run demo` */
const ENTRIES = { start: join(ROOT, 'runtime', 'serve', 'start.ts'), demo: join(ROOT, 'demo', 'demo.ts') };

/** @param {string} path @returns {number} the newest modification time under path */
function newest(path) {
  const s = statSync(path);
  if (!s.isDirectory()) return s.mtimeMs;
  return readdirSync(path).reduce((m, f) => Math.max(m, newest(join(path, f))), s.mtimeMs);
}

/** @param {string} file @param {string[]} sources @returns {boolean} true when file was written after every source changed */
export function freshAfter(file, sources) {
  return existsSync(file) && statSync(file).mtimeMs >= Math.max(...sources.filter(existsSync).map(newest));
}

/** @param {string} [outdir] @returns {boolean} true when outdir holds a server and demo compiled after every source changed */
export function serverFresh(outdir = SERVER_DIR) {
  return Object.keys(ENTRIES).every((name) => freshAfter(join(outdir, `${name}.js`), SOURCES));
}

/** @param {string} [outdir] compile runtime/serve/start.ts and demo/demo.ts into outdir/start.js and outdir/demo.js */
export async function compileServer(outdir = SERVER_DIR) {
  await compileEntries(ENTRIES, outdir);
}

/** @param {keyof typeof ENTRIES} name run dist-server/<name>.js in this process, compiled first when missing or older than its sources */
export async function runCompiled(name) {
  if (!serverFresh()) {
    process.stderr.write('compiling the server (runtime/ into dist-server/)\n');
    await compileServer();
  }
  await import(new URL(`../dist-server/${name}.js`, import.meta.url).href);
}

/** @param {string} name @param {string} entry @param {string} outdir compile entry into outdir/<name>.js */
export function compileEntry(name, entry, outdir) {
  return compileEntries({ [name]: entry }, outdir);
}

/** @param {Record<string, string>} entries name to entry file @param {string} outdir compile each into outdir/<name>.js */
async function compileEntries(entries, outdir) {
  const { build, stop } = await import('esbuild');
  rmSync(outdir, { recursive: true, force: true }); // chunk names carry hashes: the last build's would pile up
  // esbuild's service process would otherwise live as long as this one: beside a server that
  // compiled itself at start (bin/start.js), 50 MB for nothing
  const { outputFiles } = await build({
    entryPoints: entries,
    outdir,
    bundle: true,
    splitting: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    sourcemap: 'linked',
    logLevel: 'warning',
    write: false,
  }).finally(stop);
  for (const file of outputFiles) {
    mkdirSync(dirname(file.path), { recursive: true });
    writeFileSync(file.path, file.path.endsWith('.js') ? asciiOnly(file.text) : file.contents);
  }
}

/**
 * V8 keeps a module's source text while the module lives (functions compile from it when first
 * called), and one character past Latin-1 makes it keep the whole text at two bytes a character:
 * start.js took 0.7 MB of heap instead of 0.35 MB. esbuild escapes such characters in code (its
 * default charset is ASCII) but not in the comments it keeps, so those are escaped here.
 * @param {string} text @returns {string}
 */
function asciiOnly(text) {
  return text.replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

// run as `node bin/compile-server.js`: the server alone (`npm run build` compiles it through bin/build.js)
if (process.argv[1] === fileURLToPath(import.meta.url)) await compileServer();
