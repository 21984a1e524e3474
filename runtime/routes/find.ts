// GET /catalog/find: describe a job, get the candidates at once as one NDJSON line (search's best rows,
// a few per capability, live hub tools among them, and the capabilities the job's reading says do it
// when search ranked them lower), then the judge's verdict as a second line when it
// answers in time. A job that names nothing the catalog knows gets no candidates and "nothing does
// this" at once, without asking the judge. Rate limited per client.
import { getRequestIP } from 'h3';
import { route } from '../http/declared-route.ts';
import { perContext } from '../context/context.ts';
import { fail } from '../util/fail.ts';
import * as schemas from '../http/request-schemas.ts';
import { localJudge } from '../find/judge-local.ts';
import { chatJudge } from '../find/judge-chat.ts';
import { RateLimit } from '../find/rate-limit.ts';
import { readJob } from '../find/read-job.ts';
import { vocabularies } from '../find/vocabularies.ts';
import { fitting, pickCandidates } from '../find/pick-candidates.ts';
import type { SearchHit } from '../../language/search.ts';
import { actReader, actVerdict, catalogWords, namesNothing, nothingVerdict } from '../find/nothing.ts';
import type { Candidate, Judge } from '../find/types.ts';
import type { DistCatalog } from '../catalog/dist.ts';
import { ROUTED_UNIT } from '../../language/prices.ts';
import { onceAsync } from '../util/once.ts';
import { toolHits, withToolRows, withTools } from '../hub/tool-rows.ts';

const CANDIDATES = 20;
/** rows per capability among the candidates, so one large capability does not crowd out the others */
const PER_CAPABILITY = 4;

const finderOf = perContext(({ catalog, config, state }) => ({
  limit: new RateLimit(config.findRatePerMinute, state.atomics),
  // made on the first job, from the search engine (which loads once the server listens)
  reader: onceAsync(async () => {
    const search = await catalog.search();
    const docs = search.capabilities;
    const judge: Judge = config.judgeUrl
      ? chatJudge(config.judgeUrl, { key: config.judgeKey ?? undefined, model: config.judgeModel ?? undefined }, docs)
      : localJudge;
    const finder = catalog.finder();
    return {
      search,
      vocab: vocabularies(docs, finder.platforms, finder.about),
      // what makes a name written in a job a company's (a finder.json of the last release has none)
      cues: { suffixes: new Set(finder.company_suffixes ?? []), before: new Set(finder.company_cues ?? []) },
      words: catalogWords(search.rows, docs),
      actAsked: actReader(finder, docs),
      judge,
    };
  }),
}));

/** what an operation's `usd` is per, as its entry says (a routed entry's is per hit, as the build prices it) */
const unitOf = (catalog: DistCatalog, id: string, kind: string): string | undefined =>
  kind === 'routed' ? ROUTED_UNIT : catalog.runtime.operations[id]?.cost?.unit;

export const findRoutes = [
  route<{ query: { q: string } }>({
    method: 'GET',
    path: '/catalog/find',
    tags: ['catalog'],
    auth: 'none',
    open: true,
    summary: 'Describe a job: NDJSON, a candidates line at once, then a judged line when the judge answers in time',
    request: { query: schemas.findQuery, about: { q: 'the job, in words' } },
    responses: {
      200: { description: 'NDJSON stream', type: 'application/x-ndjson', schema: { type: 'string' } },
      422: 'Validation error',
      429: 'Rate limited; see Retry-After',
    },
    handle: async ({ ctx, event, query: { q } }) => {
      const { live, config, catalog } = ctx;
      const { limit, reader } = finderOf(ctx);
      const wait = await limit.take(getRequestIP(event, { xForwardedFor: config.trustProxy }) ?? 'unknown');
      if (wait) fail(429, `Too many job searches from this address; retry in ${wait} s.`, { 'retry-after': String(wait) });
      const { search, vocab, cues, words, actAsked, judge } = await reader();
      const act = actAsked(q);
      // the finder reads a person's or a company's name written in the job; search has no use for it
      const read = search.read(q, cues);
      const job = { q, reading: readJob(read, vocab) };
      // what the reading says does the job joins search's rows, whatever its words weigh
      const doing = fitting(job.reading);
      const { hits } = search.search(q, CANDIDATES * PER_CAPABILITY, (id) => live.measured(id), doing);
      const candidateOf = ({ row, score }: SearchHit): Candidate => ({
        endpoint_id: row.endpoint_id,
        capability: row.capability,
        name: row.name,
        provider: row.provider,
        kind: row.kind,
        usd: row.usd,
        score,
      });
      const operations = hits.filter((h) => !h.joined).map(candidateOf);
      const joined = hits.filter((h) => h.joined).map(candidateOf);
      // A job of names and values alone ('who is Jane Doe at Stripe') names no word search knows; its
      // reading may know it. Live hub tools stand among search's best by the same scores (the rows
      // joined after them do not rank them); a tool's maker stands as its provider.
      const namesNone =
        !doing.size &&
        namesNothing(
          words,
          read.terms.map((t) => t.term),
          q,
        );
      const ranked = act || namesNone ? [] : pickCandidates(withTools(operations, await toolHits(ctx, search, q)), joined, doing, CANDIDATES, PER_CAPABILITY);
      // each price with what it is per; a tool's is per run (SPEC, hub)
      const candidates: Candidate[] = (await withToolRows(ctx, search, ranked)).map((c) =>
        'maker' in c ? { ...c, provider: c.maker, unit: 'run' } : { ...c, unit: unitOf(catalog, c.endpoint_id, c.kind) },
      );
      const line = (o: object) => new TextEncoder().encode(`${JSON.stringify(o)}\n`);
      const stream = new ReadableStream<Uint8Array>({
        async start(out) {
          out.enqueue(line({ event: 'candidates', q, candidates }));
          if (!candidates.length) {
            out.enqueue(line({ event: 'judged', kept: [], verdict: act ? actVerdict(q, act) : nothingVerdict(q) }));
            out.close();
            return;
          }
          const signal = AbortSignal.timeout(config.judgeTimeoutMs);
          try {
            const judged = await Promise.race([
              judge(job, candidates, signal),
              new Promise<never>((_, no) => signal.addEventListener('abort', () => no(signal.reason))),
            ]);
            out.enqueue(line({ event: 'judged', kept: judged.kept, verdict: judged.verdict }));
          } catch {
            // A judge that fails or runs out of time leaves the stream with its first line.
          }
          out.close();
        },
      });
      return new Response(stream, { headers: { 'content-type': 'application/x-ndjson', 'cache-control': 'no-store' } });
    },
  }),
];
