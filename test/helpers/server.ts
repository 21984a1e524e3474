// Start the real app on a loopback port, from a built dist dir.
import type { Listener } from 'listhen';
import { readConfig } from '../../runtime/config.ts';
import { loadDist } from '../../runtime/catalog/dist.ts';
import { createApp } from '../../runtime/app.ts';
import { startServer } from '../../runtime/server.ts';
import { fastPath } from '../../runtime/fast-path.ts';
import { noLiveData, type LiveData } from '../../runtime/live.ts';
import type { AppContext } from '../../runtime/context.ts';

export function appContext(distDir: string, env: Record<string, string> = {}, live: LiveData = noLiveData): AppContext {
  const config = readConfig({ SVC_DIST_DIR: distDir, ...env });
  return { config, catalog: loadDist(distDir, `${config.publicUrl}${config.proxyPrefix}`), live } as AppContext;
}

export async function serve(ctx: AppContext): Promise<{ url: string; close: () => Promise<void> }> {
  const listener: Listener = await startServer(createApp(ctx), { port: 0, quiet: true, fast: fastPath(ctx) });
  return { url: listener.url.replace(/\/$/, ''), close: () => listener.close() };
}
