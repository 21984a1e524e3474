// The catalog tools: search, the job finder's judged rows, and one operation's detail.
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { errorResult, fromResponse, jsonResult } from './answers.ts';
import type { SvcFetch } from './svc-http.ts';
import { READ_ONLY, type McpTool } from './tool.ts';

const qs = (o: Record<string, string | number | undefined>) =>
  new URLSearchParams(
    Object.entries(o)
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => [k, String(v)]),
  ).toString();

/** The finder answers NDJSON: candidates at once, then the judge's verdict when it came in time. */
async function find(http: SvcFetch, q: string): Promise<CallToolResult> {
  const r = await http(`/catalog/find?${qs({ q })}`);
  if (!r.ok) return fromResponse(r);
  const lines = (await r.text())
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Record<string, unknown>);
  const candidates = lines.find((l) => l.event === 'candidates');
  const judged = lines.find((l) => l.event === 'judged');
  return judged ? jsonResult({ rows: judged.kept, verdict: judged.verdict, judged: true }) : jsonResult({ rows: candidates?.candidates ?? [], judged: false });
}

export const catalogTools: McpTool[] = [
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
    call: async (http, args) => fromResponse(await http(`/catalog/search?${qs({ q: String(args.q ?? ''), limit: args.limit as number | undefined })}`)),
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
    description: 'One operation in full: parameters, cost, billing rule, observed latency and hit rate, siblings and a call template.',
    inputSchema: {
      type: 'object',
      properties: { endpoint_id: { type: 'string', description: 'as search_catalog answers it, e.g. hunter.people.email.find' } },
      required: ['endpoint_id'],
    },
    call: async (http, args) => {
      const id = String(args.endpoint_id ?? '');
      if (!id) return errorResult(422, { detail: 'endpoint_id is required.' });
      return fromResponse(await http(`/catalog/endpoints/${encodeURIComponent(id)}`));
    },
  },
];
