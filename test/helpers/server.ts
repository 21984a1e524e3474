// The real app from a built dist dir with in-memory state, made as `npm start` makes it (createRuntime).
import { readConfig } from '../../runtime/config.ts';
import { assemble, createRuntime, type Svc } from '../../runtime/create-runtime.ts';
import type { AppContext } from '../../runtime/context.ts';

export async function testRuntime(distDir: string, env: Record<string, string> = {}): Promise<Svc> {
  return createRuntime(readConfig({ SVC_DIST_DIR: distDir, SVC_STORAGE: 'memory:', SVC_SECRET: 'test-secret', ...env }));
}

export async function appContext(distDir: string, env: Record<string, string> = {}): Promise<AppContext> {
  return (await testRuntime(distDir, env)).ctx;
}

/** serve a context on a loopback port */
export async function serve(ctx: AppContext): Promise<{ url: string; close: () => Promise<void> }> {
  const server = await assemble(ctx).listen(0);
  return { url: server.url, close: () => server.close() };
}
