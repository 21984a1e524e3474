// What every route group and service receives: configuration, the loaded catalog, live data, state,
// feedback and the router. createContext assembles it the same way for the server, the tests and the
// benchmarks.
import type { Config } from '../config/config.ts';
import type { DistCatalog } from '../catalog/dist.ts';
import type { LiveData } from '../catalog/live.ts';
import type { State } from '../state/index.ts';
import type { Feedback } from '../feedback/open.ts';
import { liveData } from './live-data.ts';
import { createRouter, type Router } from '../router/router.ts';
import { entryBytes, type EntryBytes } from '../catalog/entry-bytes.ts';
import { Spending } from '../money/spending.ts';
import { EarningsDue, logFailure } from '../money/earnings-due.ts';

export interface AppContext {
  config: Config;
  catalog: DistCatalog;
  live: LiveData;
  state: State;
  /** feedback records, and reviews with their summaries */
  feedback: Feedback['feedback'];
  reviews: Feedback['reviews'];
  /** made on first use, from the runtime catalog (which is parsed then): a start does not wait for it */
  readonly router: Router;
  /** holds and charges: how every call spends a team's money */
  spending: Spending;
  /** hub earnings made certain across a crash between a run's charge and its maker's earning */
  earnings: EarningsDue;
  /** bytes of GET /catalog/endpoints/{id}, live parts included */
  entryBytes: EntryBytes;
}

export function createContext(config: Config, catalog: DistCatalog, state: State, { feedback, reviews }: Feedback): AppContext {
  const live = liveData(state.observations, reviews, catalog);
  const spending = new Spending(state);
  // earnings left due by a process that died mid-run are settled as this one starts
  const earnings = new EarningsDue(state, spending);
  earnings.settle().catch(logFailure);
  let router: Router | undefined;
  return {
    config,
    catalog,
    live,
    state,
    feedback,
    reviews,
    spending,
    earnings,
    entryBytes: entryBytes(catalog, live),
    get router() {
      return (router ??= createRouter({ runtime: catalog.runtime, state, observed: (id) => live.observed(id), config, spending }));
    },
  };
}

/** Make the router now if it is not made yet: null, or why it cannot be (the runtime catalog did not load). */
export function routerProblem(ctx: AppContext): string | null {
  try {
    void ctx.router;
    return null;
  } catch (e) {
    return (e as Error).message;
  }
}

/** One value per app context, made on first use (a group's shared parts: a hub, a rate limit). */
export function perContext<T>(make: (ctx: AppContext) => T): (ctx: AppContext) => T {
  const made = new WeakMap<AppContext, T>();
  return (ctx) => {
    if (!made.has(ctx)) made.set(ctx, make(ctx));
    return made.get(ctx)!;
  };
}
