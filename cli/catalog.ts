// `svc search`, `svc show`, `svc find`: the open catalog reads, as tables or --json.
import { defineCommand } from 'citty';
import { baseUrl, detailOf, failureOf, ok, pathId, request, send } from './http.ts';
import { EXIT, CliFailure } from './fail.ts';
import { wholeNumber } from './flags.ts';
import { spin } from './spinner.ts';
import { json, note, out, pairs, printJson, table, usd, usdOf } from './print.ts';
import { priceTrust } from '../language/price-words.ts';
import { triedOrderText } from './tried-order.ts';
import { showTool, TOOL_PREFIX } from './hub-show.ts';
import { costPerHitWords, hitRateWords, overCalls } from '../language/hit-rate-words.ts';
import type { CostOut, Observed } from '../language/dist-types.ts';

interface Endpoint {
  id: string;
  name: string;
  summary: string;
  provider_display: string;
  kind: string;
  method: string;
  path: string;
  cost: CostOut | null;
  observed: Observed | null;
  input: Record<string, unknown>;
  capability: string;
}
interface Entry {
  endpoint: Endpoint;
  siblings: Endpoint[];
  call_template: string;
  hints: string[];
  routing?: object;
}

/** the words after the command; blank ones would ask the server about nothing and exit 3 as if it had looked */
function words(args: { _: string[] }, blank: string): string {
  const joined = args._.join(' ').trim();
  if (!joined) throw new CliFailure(blank, EXIT.usage);
  return joined;
}

export const search = defineCommand({
  meta: { name: 'search' },
  args: {
    query: { type: 'positional', required: true, description: 'words to search for' },
    limit: { type: 'string', default: '25', description: 'at most this many results (1..100)' },
    json,
  },
  async run({ args }) {
    const q = words(args, 'svc search needs words, such as svc search verify email.');
    const limit = wholeNumber('--limit', args.limit, 1, 100);
    const res = await ok<{
      results: Array<{
        endpoint_id: string;
        kind: string;
        provider_display?: string;
        maker?: string;
        usd: number | null;
        name: string;
        observed: Observed | null;
      }>;
      total: number;
    }>(`${baseUrl()}/catalog/search?q=${encodeURIComponent(q)}&limit=${limit}`, { label: 'searching' });
    if (args.json) printJson(res);
    else if (res.results.length) {
      out(
        table(
          ['ID', 'KIND', 'PROVIDER', 'USD', 'HIT', 'NAME'],
          res.results.map((r) => [r.endpoint_id, r.kind, r.provider_display ?? r.maker ?? '-', usdOf(r.usd), hitRateWords(r.observed), r.name]),
        ),
      );
      note(`${res.results.length} of ${res.total}; svc show ID for parameters, cost and siblings`);
    } else note(`nothing matches '${q}': try fewer or broader words`);
    if (!res.results.length) process.exitCode = EXIT.miss;
  },
});

/** a routed entry's identity sets, when it has several: one of them is required */
const identitySets = (input: Record<string, unknown>): string[][] => (Array.isArray(input.identity_sets) ? (input.identity_sets as string[][]) : []);

function parameters(input: Record<string, unknown>): string[][] {
  const rows: string[][] = [];
  const sets = identitySets(input);
  for (const [where, params] of Object.entries(input)) {
    if (!params || typeof params !== 'object' || Array.isArray(params)) continue;
    for (const [name, p] of Object.entries(params as Record<string, { type?: string; required?: boolean; note?: string }>)) {
      rows.push([
        where.replace(/Params$/, ''),
        name,
        p.type ?? '-',
        p.required ? 'yes' : sets.some((set) => set.includes(name)) ? 'in a set' : 'no',
        p.note ?? '',
      ]);
    }
  }
  return rows;
}

export const show = defineCommand({
  meta: { name: 'show' },
  args: { id: { type: 'positional', required: true, description: 'endpoint id, e.g. svc.people.email.verify' }, json },
  async run({ args }) {
    // an empty id would ask for /catalog/endpoints/ itself, which the server calls only 'Not found'
    const id = args.id.trim();
    if (!id) throw new CliFailure('svc show needs an endpoint id, such as svc.people.email.verify (svc search WORDS finds one).', EXIT.usage);
    // search lists hub tools as hub:<tool_id>; their page is the hub's
    if (id.startsWith(TOOL_PREFIX)) return showTool(id.slice(TOOL_PREFIX.length), args.json);
    const found = await request(`${baseUrl()}/catalog/endpoints/${pathId(id)}`);
    // the server's sentence echoes the id as sent in the path (escaped); say it as typed
    if (found.status === 404) {
      const near = /did you mean '([^']+)'/.exec(detailOf(found))?.[1];
      throw new CliFailure(`No endpoint '${id}'; ${near ? `did you mean ${near}? svc show ${near}` : 'svc search WORDS finds one'}.`, EXIT.refused, found.data);
    }
    if (found.status !== 200) throw failureOf(found);
    const e = found.data as Entry;
    if (args.json) return printJson(e);
    const p = e.endpoint;
    out(
      pairs({
        id: p.id,
        name: p.name,
        provider: p.provider_display,
        kind: p.kind,
        summary: p.summary,
        cost: p.cost
          ? `${usdOf(p.cost.usd)} per ${p.cost.unit} (${p.cost.type}; ${priceTrust(p.cost)}${p.cost.evidence ? `; ${p.cost.evidence.url}` : ''})`
          : 'not priced',
        observed: p.observed?.samples
          ? `hit rate ${hitRateWords(p.observed)}, p50 ${p.observed.p50_ms ?? '-'} ms, p95 ${p.observed.p95_ms ?? '-'} ms ${overCalls(p.observed.samples)}`
          : 'no calls yet',
        // a routed entry's callers pay for the whole waterfall: what that came to per hit
        ...(e.routing ? { cost_per_hit: costPerHitWords(p.observed, usd) } : {}),
      }),
    );
    const params = parameters(p.input);
    if (params.length) out(`\n${table(['IN', 'PARAMETER', 'TYPE', 'REQUIRED', 'NOTE'], params)}`);
    const sets = identitySets(p.input);
    if (sets.length) out(`one of these sets is required: ${sets.map((s) => `{${s.join(', ')}}`).join(' or ')}`);
    if (p.kind === 'routed') out(`\n${await triedOrderText(p.capability)}`);
    if (e.siblings.length) {
      out(
        `\n${table(
          ['SIBLING', 'PROVIDER', 'USD', 'HIT', 'P50 MS'],
          e.siblings.map((s) => [s.id, s.provider_display, usdOf(s.cost?.usd), hitRateWords(s.observed), s.observed?.p50_ms]),
        )}`,
      );
    }
    out(`\n${e.hints.join('\n')}`);
  },
});

interface Candidate {
  endpoint_id: string;
  capability: string;
  name: string;
  provider: string;
  usd: number | null;
  score: number;
}
type FindLine = { event: 'candidates'; candidates: Candidate[] } | { event: 'judged'; kept: Array<{ endpoint_id: string; why: string }>; verdict: string };

/** Each NDJSON line as it arrives. */
async function* ndjson(body: ReadableStream<Uint8Array>): AsyncGenerator<FindLine> {
  const decoder = new TextDecoder();
  let buf = '';
  const reader = body.getReader();
  for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
    buf += decoder.decode(chunk.value, { stream: true });
    for (let nl = buf.indexOf('\n'); nl >= 0; nl = buf.indexOf('\n')) {
      const line = buf.slice(0, nl).trim();
      buf = buf.slice(nl + 1);
      if (line) yield JSON.parse(line) as FindLine;
    }
  }
}

export const find = defineCommand({
  meta: { name: 'find' },
  args: { job: { type: 'positional', required: true, description: 'the job, in words' }, json },
  async run({ args }) {
    const res = await spin(
      'finding',
      send(`${baseUrl()}/catalog/find?q=${encodeURIComponent(words(args, "svc find needs a job in words, such as svc find 'verify an email'."))}`, {
        timeoutMs: 60_000,
      }),
    );
    if (res.status !== 200) {
      let data: unknown = null;
      try {
        data = await res.json();
      } catch {
        /* no JSON body */
      }
      throw failureOf({ status: res.status, headers: res.headers, data });
    }
    let candidates = 0;
    /** picks of the judge; null until it answers */
    let picks: number | null = null;
    try {
      for await (const line of ndjson(res.body!)) {
        if (line.event === 'candidates') candidates = line.candidates.length;
        else picks = line.kept.length;
        if (args.json) printJson(line);
        else if (line.event === 'candidates') {
          if (candidates)
            out(
              table(
                ['CANDIDATE', 'PROVIDER', 'USD', 'NAME'],
                line.candidates.map((c) => [c.endpoint_id, c.provider, usdOf(c.usd), c.name]),
              ),
            );
        } else if (picks)
          out(
            `\n${table(
              ['PICK', 'WHY'],
              line.kept.map((k) => [k.endpoint_id, k.why]),
            )}\n\n${line.verdict}`,
          );
        // no picks: the verdict alone says why ("nothing does this"), on stderr as every miss is
        else note(line.verdict);
      }
    } catch (e) {
      throw new CliFailure(`The answer stopped part-way (${(e as Error).message}).`, EXIT.server);
    }
    if (picks === null && !args.json) note('(the judge did not answer in time; the candidates above are unjudged)');
    if (!candidates || picks === 0) process.exitCode = EXIT.miss;
  },
});
