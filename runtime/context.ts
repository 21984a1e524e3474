// What every route group receives: configuration, the loaded catalog, and (once wired) state.
import type { Config } from './config.ts';
import type { DistCatalog } from './catalog/dist.ts';
import type { LiveData } from './live.ts';

export interface AppContext {
  config: Config;
  catalog: DistCatalog;
  live: LiveData;
}
