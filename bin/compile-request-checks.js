// The own routes' request validators compiled ahead into runtime/http/compiled/ (the sources come from
// runtime/http/request-check-sources.ts, TypeScript: bin/build.js registers tsx before calling this).
import { readFileSync, existsSync, writeFileSync } from 'node:fs';

/** write each compiled validator module whose text changed (an unchanged one keeps its time, so the server stays fresh) */
export async function writeRequestChecks() {
  const { ROUTES } = await import(new URL('../runtime/routes/app.ts', import.meta.url).href);
  const { requestCheckSources, COMPILED_DIR } = await import(new URL('../runtime/http/request-check-sources.ts', import.meta.url).href);
  for (const [name, text] of Object.entries(requestCheckSources(ROUTES))) {
    const file = new URL(name, COMPILED_DIR);
    if (!existsSync(file) || readFileSync(file, 'utf8') !== text) writeFileSync(file, text);
  }
}
