// GET /meta: where to call, which release serves, which dashboard build is live.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { route } from '../http/declared-route.ts';
import { perContext } from '../context/context.ts';
import pkg from '../../package.json' with { type: 'json' };

/** Short hash of the dashboard entry and the rollout policy: changes when either changes. */
export function appVersion(distDir: string): string {
  const h = createHash('sha256');
  for (const f of ['index.html', 'rollout.json']) {
    const p = join(distDir, f);
    h.update(f)
      .update('\0')
      .update(existsSync(p) ? readFileSync(p) : Buffer.alloc(0))
      .update('\0');
  }
  return h.digest('hex').slice(0, 12);
}

/**
 * appVersion, hashed again only when either file's size or time changed: the server reads dist/
 * from disk per request, so a dashboard built (or a rollout policy edited) while it runs is served
 * at once, and open tabs polling /meta must see its new version then, not after a restart.
 */
function liveAppVersion(distDir: string): () => string {
  let stamp = '';
  let version = '';
  return () => {
    const now = ['index.html', 'rollout.json']
      .map((f) => {
        const s = statSync(join(distDir, f), { throwIfNoEntry: false });
        return s ? `${s.size}:${s.mtimeMs}` : '-';
      })
      .join('|');
    if (now !== stamp) [stamp, version] = [now, appVersion(distDir)];
    return version;
  };
}

const metaOf = perContext(({ config, catalog }) => {
  const app = liveAppVersion(config.distDir);
  const catalogFacts = {
    hash: catalog.manifest.hash,
    built_at: catalog.manifest.built_at,
    operations: catalog.manifest.operations,
    providers: catalog.manifest.providers,
  };
  return () => ({
    proxy_url: `${config.publicUrl}${config.proxyPrefix}`,
    // the proxy's path on this server: a client that reaches svc at another address than the public
    // URL (inside the network, or behind a proxy that strips a path) calls it there
    proxy_prefix: config.proxyPrefix,
    svc_version: pkg.version,
    app_version: app(),
    catalog: catalogFacts,
  });
});

export const metaRoutes = [
  route({
    method: 'GET',
    path: '/meta',
    summary: 'Proxy URL, release and dashboard versions, catalog hash',
    tags: ['meta'],
    auth: 'none',
    open: true,
    responses: { 200: 'Meta' },
    handle: ({ ctx }) => metaOf(ctx)(),
  }),
];
