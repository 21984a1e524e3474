// The real catalog behind a loopback server for one relevance test file: started before its tests,
// closed after; the finder's rate limit lifted, since these files ask it hundreds of times.
import { afterAll, beforeAll } from 'vitest';
import { REAL_DIST } from '../helpers/paths.ts';
import { appContext, serve } from '../helpers/server.ts';

export function servedRealCatalog(): { url: string } {
  const served = { url: '' };
  let close: () => Promise<void> = async () => {};
  beforeAll(async () => {
    const s = await serve(await appContext(REAL_DIST, { SVC_FIND_RATE_PER_MINUTE: '100000' }));
    served.url = s.url;
    close = s.close;
  });
  afterAll(() => close());
  return served;
}
