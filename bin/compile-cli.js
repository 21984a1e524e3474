// The `svc` command compiled to JavaScript (dist-cli/), so bin/svc.js can run it with plain node,
// without loading TypeScript first: `svc --help` then answers in a fraction of the tsx start. Plain
// JavaScript itself. `npm run build` writes it; until then, or once any source is newer, bin/svc.js
// runs the TypeScript through tsx as before. Each command is its own chunk (cli/commands.ts).
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { compileEntry, freshAfter } from './compile-server.js';

const ROOT = join(import.meta.dirname, '..');
export const CLI_DIR = join(ROOT, 'dist-cli');
/** what the compiled CLI is made from: its commands reach the runtime, the build and the demo */
const SOURCES = ['cli', 'runtime', 'build', 'language', 'demo', 'sandbox', 'package.json', 'package-lock.json'].map((p) => join(ROOT, p));

/** @param {string} [outdir] @returns {boolean} true when outdir holds a CLI compiled after every source changed */
export const cliFresh = (outdir = CLI_DIR) => freshAfter(join(outdir, 'svc.js'), SOURCES);

/** @param {string} [outdir] compile cli/main.ts into outdir/svc.js */
export const compileCli = (outdir = CLI_DIR) => compileEntry('svc', join(ROOT, 'cli', 'main.ts'), outdir);

// run as `node bin/compile-cli.js`: a step of `npm run build`
if (process.argv[1] === fileURLToPath(import.meta.url)) await compileCli();
