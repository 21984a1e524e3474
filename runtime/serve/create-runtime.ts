// svc assembled in one place: state, the catalog, the context, the app and the server that serves
// it (Node's HTTP server, with the one fast path). `npm start`, the demo, the tests and the benchmarks all make svc here.
import type { H3 } from 'h3';
import type { Config } from '../config/config.ts';
import { ensureBuilt } from './ensure-built.ts';
import { loadDist } from '../catalog/dist.ts';
import { createApp, ROUTES } from '../routes/app.ts';
import { refuseClashingPrefix } from '../http/declared-route.ts';
import { startServer, type RunningServer } from '../http/server.ts';
import { fastPath } from '../http/fast-path.ts';
import { createState } from '../state/index.ts';
import { openFeedback } from '../feedback/open.ts';
import { createContext, routerProblem, type AppContext } from '../context/context.ts';

export interface Svc {
  ctx: AppContext;
  /** the app alone: app.fetch(request) answers without a socket */
  app: H3;
  /** serve on `port` (default PORT) and HOST, then load the search index in the background */
  listen(port?: number): Promise<RunningServer>;
}

/** The app and its server over a context made already. */
export function assemble(ctx: AppContext): Svc {
  const app = createApp(ctx);
  const listen = async (port = ctx.config.port) => {
    const server = await startServer(app, { port, hostname: ctx.config.host, fast: fastPath(ctx) });
    // The search index loads now, a slice at a time between requests, rather than before the first
    // answer; a search that comes first waits for it. A failed load is tried again by that search.
    // Then the router is made (the runtime catalog parsed: 80-95 ms of CPU at 10,000 operations, in one
    // piece, so after the slices rather than in the way of the first answers); a routed call that
    // comes first makes it itself.
    ctx.catalog
      .search()
      .catch((e: unknown) => process.stderr.write(`svc: the search index did not load (${(e as Error).message}); the next search tries again\n`))
      .finally(() => setImmediate(warmRouter, ctx));
    return server;
  };
  return { ctx, app, listen };
}

function warmRouter(ctx: AppContext): void {
  const problem = routerProblem(ctx);
  if (problem) process.stderr.write(`svc: the runtime catalog did not load (${problem}); routed and pass-through calls answer 500 until it does\n`);
}

/**
 * svc from its configuration. A proxy prefix clashing with svc's own paths stops it first; then state
 * opens, so a data directory another process holds stops the start before any build work; `build`
 * rebuilds a stale catalog (npm start) before loading it.
 */
export async function createRuntime(config: Config, opts: { build?: boolean } = {}): Promise<Svc> {
  refuseClashingPrefix(ROUTES, config.proxyPrefix);
  const state = await createState(config);
  const feedback = await openFeedback(state);
  if (opts.build) await ensureBuilt(config.distDir);
  const catalog = loadDist(config.distDir, `${config.publicUrl}${config.proxyPrefix}`);
  return assemble(createContext(config, catalog, state, feedback));
}
