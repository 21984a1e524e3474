// The build a start runs when its catalog or dashboard is stale, in a process of its own
// (runtime/serve/ensure-built.ts forks this file through tsx), so the build's parsers, schema checks
// and vite leave memory when it ends instead of staying in the server for as long as it runs: a
// server that had built in its own process held 140 MB (the catalog) to 240 MB (with the dashboard)
// where a fresh start holds 83 MB. Progress and catalog errors go to the server as messages.
// Arguments: <dist dir> <catalog source dir> then `catalog`, `dashboard` or both.
import './plain-output.ts'; // first: before vite reads the environment
import { join } from 'node:path';

/** what the build tells the process that forked it */
export type RebuildMessage = { log: string } | { errors: string[] };

const say = (m: RebuildMessage) => new Promise<void>((resolve) => process.send?.(m, undefined, {}, () => resolve()));

async function rebuild(distDir: string, src: string, parts: string[]): Promise<void> {
  const sent: Promise<void>[] = [];
  if (parts.includes('catalog')) {
    const { buildCatalog } = await import('./pipeline.ts');
    const r = await buildCatalog({ src, out: join(distDir, 'catalog'), log: (line) => sent.push(say({ log: line })) });
    if (r.errors.length) {
      await Promise.all([...sent, say({ errors: r.errors })]);
      process.exitCode = 1;
      return;
    }
  }
  if (parts.includes('dashboard')) await (await import('./dashboard.ts')).buildDashboard(distDir);
  await Promise.all(sent);
}

const [distDir, src, ...parts] = process.argv.slice(2);
await rebuild(distDir, src, parts);
