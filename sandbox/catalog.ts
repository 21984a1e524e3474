// What the sandbox imitates providers from: the runtime catalog (how each operation is asked and read)
// and the captured example answers, which the server never loads and the build writes apart.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { SandboxCatalog } from './types.ts';

export function loadSandboxCatalog(distDir: string): SandboxCatalog {
  const read = (file: string): unknown => JSON.parse(readFileSync(join(distDir, 'catalog', file), 'utf8'));
  return { ...(read('runtime.json') as Omit<SandboxCatalog, 'examples'>), examples: read('examples.json') as SandboxCatalog['examples'] };
}
