// Start the real app on a loopback port, from a built dist dir, with in-memory state.
import { readConfig } from '../../runtime/config.ts';
import { loadDist } from '../../runtime/catalog/dist.ts';
import { createApp } from '../../runtime/app.ts';
import { startServer } from '../../runtime/server.ts';
import { fastPath } from '../../runtime/fast-path.ts';
import { createState } from '../../runtime/state/index.ts';
import { createContext, type AppContext } from '../../runtime/context.ts';

export async function appContext(distDir: string, env: Record<string, string> = {}): Promise<AppContext> {
  const config = readConfig({ SVC_DIST_DIR: distDir, SVC_STORAGE: 'memory:', SVC_SECRET: 'test-secret', ...env });
  return createContext(config, loadDist(distDir, `${config.publicUrl}${config.proxyPrefix}`), await createState(config));
}

export async function serve(ctx: AppContext): Promise<{ url: string; close: () => Promise<void> }> {
  const server = await startServer(createApp(ctx), { port: 0, fast: fastPath(ctx) });
  return { url: server.url, close: () => server.close() };
}
