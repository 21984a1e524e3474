// The real catalog behind a loopback server for one relevance test file: started before its tests,
// closed after; the finder's rate limit lifted, since these files ask it hundreds of times. And the
// finder's two lines for a job, as these files read them.
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

/** what GET /catalog/find answers a job: its candidates, and what the judge kept and said */
export interface Judged {
  candidates: Array<{ endpoint_id: string; capability: string; kind: string; usd: number | null; unit?: string }>;
  kept: Array<{ endpoint_id: string; why: string }>;
  verdict: string;
}

export async function judged(server: { url: string }, q: string): Promise<Judged> {
  const [{ candidates }, { kept, verdict }] = (await (await fetch(`${server.url}/catalog/find?q=${encodeURIComponent(q)}`)).text())
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
  return { candidates, kept, verdict };
}
