// The compiled CLI (bin/compile-cli.js, run by `npm run build`): plain node, no tsx. Its usage and
// its checks work from the compiled files, and its entry statically loads no command: each
// command's chunk is a dynamic import, so `svc --help` loads none of them.
import { execFile } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, expect, it } from 'vitest';
import { cliFresh, compileCli } from '../../bin/compile-cli.js';
import { ROOT } from '../helpers/paths.ts';

const run = promisify(execFile);
const out = join(ROOT, '.test-dist', 'cli');

beforeAll(async () => {
  rmSync(out, { recursive: true, force: true });
  expect(cliFresh(out)).toBe(false);
  await compileCli(out);
  expect(cliFresh(out)).toBe(true);
});

async function svc(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    return { code: 0, ...(await run(process.execPath, [join(out, 'svc.js'), ...args], { env: { PATH: process.env.PATH, SVC_URL: 'http://127.0.0.1:9' } })) };
  } catch (e) {
    const err = e as { code: number; stdout: string; stderr: string };
    return { code: err.code, stdout: err.stdout, stderr: err.stderr };
  }
}

it('prints the usage with the exit codes, and refuses a bad flag value before sending', async () => {
  const help = await svc(['--help']);
  expect(help.code).toBe(0);
  expect(help.stdout).toMatch(/^\s+search\s+Search the catalog/m);
  expect(help.stdout).toMatch(/^Exit codes:$/m);
  expect(await svc(['search', 'email', '--limit', 'abc'])).toMatchObject({
    code: 2,
    stderr: "svc: --limit takes a whole number from 1 to 100; 'abc' is not one.\n",
  });
});

it('loads no command module until a command runs: the entry imports none statically', () => {
  const seen = new Set<string>();
  const walk = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    // static imports of our own chunks; `import("./x.js")` (dynamic) is left out
    for (const m of readFileSync(join(out, file), 'utf8').matchAll(/^import\s*(?:[^'"();]*?from\s*)?"\.\/([^"]+)";?$/gm)) walk(m[1]);
  };
  walk('svc.js');
  expect(seen.size).toBeGreaterThan(0);
  const text = [...seen].map((f) => readFileSync(join(out, f), 'utf8')).join('\n');
  // what commands bring: the MCP server, the router's merge, money parsing, the catalog tables
  for (const word of ['StdioServerTransport', 'parseUsdToMicro', 'CANDIDATE', 'renderPlan']) expect(text).not.toContain(word);
  expect(text).toContain('commandsFor');
});
