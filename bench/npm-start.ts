// svc as `npm start` runs it, for every bench that loads svc: the compiled server in one plain node
// process with the start script's flags (no tsx),
// over a catalog of the bench's choosing, its providers pointed at the bench's upstream.
import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { catalogSourceHash } from '../build/source-hash.ts';
import { loadRuntime } from '../runtime/catalog/dist.ts';
import { sandboxKeys } from '../sandbox/index.ts';
import { sandboxEnv } from '../sandbox/svc-env.ts';

const ROOT = join(import.meta.dirname, '..');
/** `npm start` without npm: node's arguments from the start script of the checkout at `root` */
export const npmStartArgs = (root = ROOT): string[] =>
  (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: { start: string } }).scripts.start.split(' ').slice(1);
const ADMIN = 'bench-admin';

/**
 * Make `dist` (holding a catalog in `dist/catalog`) servable by a start that rebuilds what is stale:
 * the built dashboard beside it, and the catalog marked as built from today's catalog-src, so the
 * start serves the bench's catalog as is.
 */
export function servable(dist: string): string {
  for (const entry of readdirSync(join(ROOT, 'dist'))) if (entry !== 'catalog') cpSync(join(ROOT, 'dist', entry), join(dist, entry), { recursive: true });
  writeFileSync(join(dist, 'catalog', '.source-hash'), catalogSourceHash(join(ROOT, 'catalog-src')));
  return dist;
}

export interface StartedSvc {
  url: string;
  token: string;
  pid: number;
  child: ChildProcess;
}

/**
 * `npm start`'s server over `dist` with `storage`, its providers at `upstream`, and a team with ample
 * credit. `root`: another checkout of svc (built) to start instead, to compare two versions in one run;
 * `stdout`: a file descriptor for what the server writes to its standard output (node's tracing).
 */
export async function npmStart(
  dist: string,
  upstream: string,
  storage: string,
  opts: { nodeArgs?: string[]; root?: string; env?: Record<string, string>; stdout?: number } = {},
): Promise<StartedSvc> {
  const root = opts.root ?? ROOT;
  const runtime = loadRuntime(dist);
  const env = {
    ...process.env,
    ...sandboxEnv(runtime, upstream, sandboxKeys(runtime, {}).keys),
    PORT: '0',
    SVC_STORAGE: storage,
    SVC_DIST_DIR: servable(dist),
    SVC_ADMIN_TOKEN: ADMIN,
    SVC_SECRET: 'bench',
    ...opts.env,
  };
  const child = spawn(process.execPath, [...(opts.nodeArgs ?? []), ...npmStartArgs(root)], {
    cwd: root,
    env,
    stdio: ['ignore', opts.stdout ?? 'ignore', 'pipe'],
  });
  let err = '';
  const url = await new Promise<string>((resolve, reject) => {
    child.stderr!.on('data', (d: Buffer) => {
      err += d.toString();
      const m = /svc listening on (\S+)/.exec(err);
      if (m) resolve(m[1]);
    });
    child.once('exit', (code) => reject(new Error(`npm start exited ${code}: ${err}`)));
  });
  const r = await fetch(`${url}/admin/teams`, {
    method: 'POST',
    headers: { 'x-svc-admin': ADMIN, 'content-type': 'application/json' },
    body: JSON.stringify({ name: `bench ${child.pid}`, credit_usd: 1_000_000 }),
  });
  if (r.status !== 201) throw new Error(`team not made: ${r.status} ${await r.text()}`);
  const { token } = (await r.json()) as { token: string };
  return { url, token, pid: child.pid!, child };
}
