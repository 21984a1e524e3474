// The catalog tools: search, the job finder's judged rows, and one operation's detail (or a hub
// tool's page). Hub tools among the rows are those of the caller's MCP set only (hub-rows.ts), and
// every review an answer carries is plain text (review-words.ts).
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { errorResult, fromResponse, jsonResult } from './answers.ts';
import { chosenRows, hubIdOf, showHubTool } from './hub-rows.ts';
import { plainText } from '../util/plain-text.ts';
import { withPlainReviews } from './review-words.ts';
import type { SvcFetch } from './svc-http.ts';
import { READ_ONLY, type McpTool } from './tool.ts';

const qs = (o: Record<string, string | number | undefined>) =>
  new URLSearchParams(
    Object.entries(o)
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => [k, String(v)]),
  ).toString();

type Row = { endpoint_id: string; [k: string]: unknown };
/** caps on the judge's words, as svc cuts a chat judge's answer */
const WHY_MAX = 500;
const VERDICT_MAX = 1000;

/** what to do next, in the agent's tools (svc's own hints name HTTP paths, and may name a row left out) */
function hints(results: Row[]): string[] {
  const first = results[0];
  if (!first) return ['No match: try fewer or broader words, or find_operations with the job in plain words.'];
  const tool = hubIdOf(first.endpoint_id);
  return [
    tool === null
      ? `show_operation with endpoint_id '${first.endpoint_id}' for its parameters, cost, siblings and a call template.`
      : `show_operation with endpoint_id '${first.endpoint_id}' for its schemas, price and checks; call it as hub_${tool}.`,
  ];
}

async function search(http: SvcFetch, q: string, limit: number | undefined): Promise<CallToolResult> {
  const r = await http(`/catalog/search?${qs({ q, limit })}`);
  if (!r.ok) return fromResponse(r);
  const body = (await r.json()) as { results: Row[]; total: number };
  const results = await chosenRows(http, body.results);
  return jsonResult({ q, results, total: body.total - (body.results.length - results.length), hints: hints(results) });
}

/**
 * The finder answers NDJSON: candidates at once, then the judge's verdict when it came in time. The
 * judge's words are plain text too: they may quote a hub tool's name.
 */
async function find(http: SvcFetch, q: string): Promise<CallToolResult> {
  const r = await http(`/catalog/find?${qs({ q })}`);
  if (!r.ok) return fromResponse(r);
  const lines = (await r.text())
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Record<string, unknown>);
  const candidates = lines.find((l) => l.event === 'candidates');
  const judged = lines.find((l) => l.event === 'judged');
  if (!judged) return jsonResult({ rows: await chosenRows(http, (candidates?.candidates ?? []) as Row[]), judged: false });
  const kept = (await chosenRows(http, judged.kept as Row[])).map((k) => ({ ...k, why: plainText(String(k.why ?? ''), WHY_MAX) }));
  return jsonResult({ rows: kept, verdict: plainText(String(judged.verdict ?? ''), VERDICT_MAX), judged: true });
}

/**
 * A sibling as an agent weighs it: who, what it costs and how it fares, with show_operation for the
 * rest. An entry's siblings in full are most of its size (70 KB for a capability of 30 providers),
 * which an agent would pay for in context on every look at one operation.
 */
function briefSibling(s: Record<string, unknown>): Record<string, unknown> {
  const cost = s.cost as { type?: string; usd?: number | null; per?: number; unit?: string; source?: string } | null | undefined;
  const { id, name, provider, provider_display, kind, status, platform_eligible, observed, reviews } = s;
  return {
    id,
    name,
    provider,
    provider_display,
    kind,
    status,
    platform_eligible,
    cost: cost ? { type: cost.type, usd: cost.usd, per: cost.per, unit: cost.unit, source: cost.source } : cost,
    observed,
    ...(reviews === undefined ? {} : { reviews }),
  };
}

const tools: McpTool[] = [
  {
    name: 'search_catalog',
    title: 'Search the catalog (free)',
    annotations: READ_ONLY,
    description:
      'Search the catalog of provider operations by words (provider, data, job). Answers operations with their capability, price and observed hit rate.',
    inputSchema: {
      type: 'object',
      properties: { q: { type: 'string', description: 'words to search for' }, limit: { type: 'integer', minimum: 1, maximum: 100, default: 25 } },
      required: ['q'],
    },
    call: (http, args) => search(http, String(args.q ?? ''), args.limit as number | undefined),
  },
  {
    name: 'find_operations',
    title: 'Find operations for a job (free)',
    annotations: READ_ONLY,
    description: 'Describe a job in a sentence ("find the work email of a person at a company"); answers the operations judged to do it, best first.',
    inputSchema: { type: 'object', properties: { q: { type: 'string', description: 'the job, in plain words' } }, required: ['q'] },
    call: (http, args) => find(http, String(args.q ?? '')),
  },
  {
    name: 'show_operation',
    title: 'Show one operation (free)',
    annotations: READ_ONLY,
    description:
      "One operation in full: parameters, cost, billing rule, observed latency and hit rate, siblings and a call template; for hub:<tool_id>, the hub tool's page: schemas, price, maker, checks and versions.",
    inputSchema: {
      type: 'object',
      properties: { endpoint_id: { type: 'string', description: 'as search_catalog answers it, e.g. hunter.people.email.find or hub:<tool_id>' } },
      required: ['endpoint_id'],
    },
    call: async (http, args) => {
      const id = String(args.endpoint_id ?? '');
      if (!id) return errorResult(422, { detail: 'endpoint_id is required.' });
      const tool = hubIdOf(id);
      if (tool !== null) return showHubTool(http, tool);
      const r = await http(`/catalog/endpoints/${encodeURIComponent(id)}`);
      if (!r.ok) return fromResponse(r);
      const entry = (await r.json()) as { siblings?: Array<Record<string, unknown>> };
      return jsonResult({ ...entry, siblings: (entry.siblings ?? []).map(briefSibling) });
    },
  },
];

/** the catalog tools, each answer with the reviews it carries (teams' words) as plain text */
export const catalogTools: McpTool[] = tools.map((t) => ({ ...t, call: async (http, args) => withPlainReviews(await t.call(http, args)) }));
