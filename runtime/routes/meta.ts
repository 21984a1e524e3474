// GET /meta: where to call, which release serves, which dashboard build is live.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { perContext, route } from '../declared-route.ts';
import pkg from '../../package.json' with { type: 'json' };

/** Short hash of the dashboard entry and the rollout policy: changes when either changes. */
export function appVersion(distDir: string): string {
  const h = createHash('sha256');
  for (const f of ['index.html', 'rollout.json']) {
    const p = join(distDir, f);
    h.update(f).update('\0').update(existsSync(p) ? readFileSync(p) : Buffer.alloc(0)).update('\0');
  }
  return h.digest('hex').slice(0, 12);
}

const metaOf = perContext(({ config, catalog }) => ({
  proxy_url: `${config.publicUrl}${config.proxyPrefix}`,
  // the proxy's path on this server: a client that reaches svc at another address than the public
  // URL (inside the network, or behind a proxy that strips a path) calls it there
  proxy_prefix: config.proxyPrefix,
  svc_version: pkg.version,
  app_version: appVersion(config.distDir),
  catalog: {
    hash: catalog.manifest.hash,
    built_at: catalog.manifest.built_at,
    operations: catalog.manifest.operations,
    providers: catalog.manifest.providers,
  },
}));

export const metaRoutes = [
  route({
    method: 'GET', path: '/meta', summary: 'Proxy URL, release and dashboard versions, catalog hash', tags: ['meta'], auth: 'none', open: true,
    responses: { 200: 'Meta' },
    handle: ({ ctx }) => metaOf(ctx),
  }),
];
