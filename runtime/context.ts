// What every route group receives: configuration, the loaded catalog, live data and state.
import type { Config } from './config.ts';
import type { DistCatalog } from './catalog/dist.ts';
import type { LiveData } from './live.ts';
import type { State } from './state/index.ts';

export interface AppContext {
  config: Config;
  catalog: DistCatalog;
  live: LiveData;
  state: State;
}
