// GET /catalog/find: describe a job, get the lexical candidates at once as one NDJSON line, then the
// judge's verdict as a second line when it answers in time. Rate limited per client.
import { getQuery, getRequestIP, type H3 } from 'h3';
import type { AppContext } from '../context.ts';
import { fail } from '../errors.ts';
import { queryValidator } from '../validate.ts';
import * as schemas from '../request-schemas.ts';
import { localJudge } from '../find/judge-local.ts';
import { chatJudge } from '../find/judge-chat.ts';
import { RateLimit } from '../find/rate-limit.ts';
import type { Candidate, Judge } from '../find/types.ts';

const CANDIDATES = 20;
const findQuery = queryValidator<{ q: string }>(schemas.findQuery);

export function findRoutes(app: H3, { catalog, live, config, state }: AppContext): void {
  const judge: Judge = config.judgeUrl ? chatJudge(config.judgeUrl, { key: config.judgeKey ?? undefined, model: config.judgeModel ?? undefined }) : localJudge;
  const limit = new RateLimit(config.findRatePerMinute, state.atomics);

  app.get('/catalog/find', async (event) => {
    const { q } = findQuery(getQuery(event));
    const wait = await limit.take(getRequestIP(event, { xForwardedFor: config.trustProxy }) ?? 'unknown');
    if (wait) fail(429, `Too many job searches from this address; retry in ${wait} s.`, { 'retry-after': String(wait) });
    const candidates: Candidate[] = catalog.search.search(q, CANDIDATES, (id) => live.measured(id)).hits.map(({ row, score }) => ({
      endpoint_id: row.endpoint_id, capability: row.capability, name: row.name, provider: row.provider, usd: row.usd, score,
    }));
    const line = (o: object) => new TextEncoder().encode(`${JSON.stringify(o)}\n`);
    const stream = new ReadableStream<Uint8Array>({
      async start(out) {
        out.enqueue(line({ event: 'candidates', q, candidates }));
        const signal = AbortSignal.timeout(config.judgeTimeoutMs);
        try {
          const judged = await Promise.race([judge(q, candidates, signal), new Promise<never>((_, no) => signal.addEventListener('abort', () => no(signal.reason)))]);
          out.enqueue(line({ event: 'judged', kept: judged.kept, verdict: judged.verdict }));
        } catch {
          // A judge that fails or runs out of time leaves the stream with its first line.
        }
        out.close();
      },
    });
    return new Response(stream, { headers: { 'content-type': 'application/x-ndjson', 'cache-control': 'no-store' } });
  });
}
