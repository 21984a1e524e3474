// The real app from a built dist dir with in-memory state, made as `npm start` makes it (createRuntime).
import { readConfig } from '../../runtime/config/config.ts';
import { assemble, createRuntime, type Svc } from '../../runtime/serve/create-runtime.ts';
import type { AppContext } from '../../runtime/context/context.ts';

/**
 * The two doors a request can come in by: the listening server (whose Node fast path takes
 * token-bearing routed calls) and the h3 app itself (app.fetch).
 */
export type Door = 'node' | 'h3';

/** The door a suite's requests use: the vitest project running it sets it (vite.config.ts), so door suites run through both. */
export const SUITE_DOOR: Door = process.env.SVC_TEST_DOOR === 'h3' ? 'h3' : 'node';

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

/** svc listening on loopback, and `fetch` of a path through this run's door */
export async function servedRuntime(
  distDir: string,
  env: Record<string, string> = {},
): Promise<{ url: string; fetch: (path: string, init?: RequestInit) => Promise<Response>; close: () => Promise<void> }> {
  const { app, listen } = await testRuntime(distDir, env);
  const server = await listen(0);
  const through = async (path: string, init?: RequestInit) =>
    SUITE_DOOR === 'h3' ? app.fetch(new Request(server.url + path, init)) : fetch(server.url + path, init);
  return { url: server.url, fetch: through, close: () => server.close() };
}
