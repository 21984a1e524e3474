// The dashboard built by vite (once, by the global setup) beside the real catalog of this test run,
// served by the real runtime behind a front door whose /meta app_version a test can change (a deploy while a tab is open).
import { mkdirSync, readdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { H3 } from 'h3';
import { createApp } from '../../runtime/routes/app.ts';
import { startServer } from '../../runtime/http/server.ts';
import type { AppContext } from '../../runtime/context/context.ts';
import { appContext } from './server.ts';
import { DASHBOARD_BUILD, REAL_DIST, ROOT } from './paths.ts';

export interface DashboardServer {
  url: string;
  ctx: AppContext;
  /** from now on /meta answers this app_version */
  deploy(appVersion: string): void;
  close(): Promise<void>;
}

/** `folder` under .test-dist: each suite serves its own, linking the one build and the real catalog; `env` as for the runtime */
export async function serveDashboard(folder = 'dashboard', env: Record<string, string> = {}): Promise<DashboardServer> {
  const dist = join(ROOT, '.test-dist', folder);
  mkdirSync(dist, { recursive: true });
  symlinkSync(join(REAL_DIST, 'catalog'), join(dist, 'catalog'));
  for (const name of readdirSync(DASHBOARD_BUILD)) symlinkSync(join(DASHBOARD_BUILD, name), join(dist, name));
  const ctx = await appContext(dist, env);
  const app = createApp(ctx);
  let deployed: string | null = null;
  const front = new H3();
  front.get('/meta', async (event) => {
    const meta = (await (await app.fetch(event.req)).json()) as Record<string, unknown>;
    return deployed ? { ...meta, app_version: deployed } : meta;
  });
  front.all('/**', (event) => app.fetch(event.req));
  const server = await startServer(front, { port: 0 });
  return {
    url: server.url,
    ctx,
    deploy: (v) => {
      deployed = v;
    },
    close: () => server.close(),
  };
}
