// One tool per routed capability, generated from svc's OpenAPI document (itself generated from the
// built catalog): the capability's request schema (identity fields and filters, with the catalog's
// descriptions) plus the route options it takes as optional arguments, sent on as the route
// headers (`verify` only where the capability has verification: OpenAPI lists that header there
// only). Refusals name the arguments, never the headers they became.
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { fromResponse, type Terms } from './answers.ts';
import type { SvcFetch } from './svc-http.ts';
import { PAID, type McpTool } from './tool.ts';

/** the route options an agent may set, and the header each becomes */
const OPTIONS: Record<string, { header: string; schema: object }> = {
  max_cost: {
    header: 'X-Svc-Route-Max-Cost',
    schema: { type: 'number', minimum: 0, description: 'Most this call may cost in USD, every attempt included (default 1.00).' },
  },
  prefer: { header: 'X-Svc-Route-Prefer', schema: { type: 'array', items: { type: 'string' }, description: 'Providers to try first.' } },
  exclude: { header: 'X-Svc-Route-Exclude', schema: { type: 'array', items: { type: 'string' }, description: 'Providers never to try.' } },
  waterfall: { header: 'X-Svc-Route-Waterfall', schema: { type: 'boolean', description: 'Try the next provider after a miss (default true).' } },
  verify: { header: 'X-Svc-Route-Verify', schema: { type: 'boolean', description: "Verify a hit with the capability's verifier, where it has one." } },
  dry_run: {
    header: 'X-Svc-Route-Dry-Run',
    schema: { type: 'boolean', description: 'Answer the plan and its worst cost without calling or charging anything.' },
  },
};

interface OpenApiOperation {
  operationId?: string;
  summary?: string;
  tags?: string[];
  parameters?: Array<{ name: string; in: string }>;
  requestBody?: { content?: Record<string, { schema?: { properties?: Record<string, object>; required?: string[]; description?: string } }> };
}

/** MCP clients accept [a-zA-Z0-9_-] in a tool name: people.email.find → people_email_find */
export const toolName = (capability: string): string => capability.replace(/[^a-zA-Z0-9_-]/g, '_');

/** a USD number as decimal text cut (never rounded up) to micro-USD: 1e-7 is "0.000000", not "1e-7" */
const usdText = (usd: number): string => usd.toFixed(7).slice(0, -1);

function headersOf(args: Record<string, unknown>): Record<string, string> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  for (const [arg, { header }] of Object.entries(OPTIONS)) {
    const v = args[arg];
    if (v === undefined || v === null) continue;
    headers[header] = Array.isArray(v) ? v.join(',') : typeof v === 'boolean' ? (v ? '1' : '0') : typeof v === 'number' ? usdText(v) : String(v);
  }
  return headers;
}

/** the routed answer as an agent wants it: the output, who served, what it cost */
function shaped(body: Record<string, unknown>): Record<string, unknown> {
  if (!('_svc' in body)) return body; // a dry run: the plan as it is
  const svc = body._svc as { served_by: string | null; cost_micro: number; call_id: string; stopped?: string; tried: unknown[] };
  return {
    output: body.output,
    hit: svc.served_by !== null,
    served_by: svc.served_by,
    cost_usd: svc.cost_micro / 1e6,
    cost_micro: svc.cost_micro,
    call_id: svc.call_id,
    ...(svc.stopped ? { stopped: svc.stopped } : {}),
    tried: svc.tried,
  };
}

/** svc's sentences with each route header named as the argument it came from: `max_cost: 'max_cost' must be …` */
const inArgumentTerms: Terms = (text) =>
  Object.entries(OPTIONS).reduce((t, [arg, { header }]) => t.replaceAll(`${header}: `, `${arg}: `).replaceAll(header, `'${arg}'`), text);

async function callRouted(http: SvcFetch, path: string, args: Record<string, unknown>, options: ReadonlySet<string>): Promise<CallToolResult> {
  // an argument the tool does not offer goes in the body, where svc names it as an unknown field
  const body = Object.fromEntries(Object.entries(args).filter(([k]) => !options.has(k)));
  const routeArgs = Object.fromEntries(Object.entries(args).filter(([k]) => options.has(k)));
  return fromResponse(await http(path, { method: 'POST', headers: headersOf(routeArgs), body: JSON.stringify(body) }), shaped, inArgumentTerms);
}

export function routedTools(openapi: { paths: Record<string, Record<string, OpenApiOperation>> }): McpTool[] {
  const tools: McpTool[] = [];
  for (const [path, methods] of Object.entries(openapi.paths)) {
    const op = methods.post;
    if (!op?.tags?.includes('routed') || !op.operationId?.startsWith('svc.')) continue;
    const capability = op.operationId.slice('svc.'.length);
    const schema = op.requestBody?.content?.['application/json']?.schema ?? {};
    const headers = new Set((op.parameters ?? []).filter((p) => p.in === 'header').map((p) => p.name.toLowerCase()));
    const offered = Object.entries(OPTIONS).filter(([, o]) => headers.has(o.header.toLowerCase()));
    const names = new Set(offered.map(([k]) => k));
    tools.push({
      name: toolName(capability),
      title: `${op.summary ?? capability} (paid)`,
      description: `Paid: charged to your balance per call (dry_run: true plans for free). ${op.summary ?? capability} (routed capability ${capability}: svc tries its providers one after another, in the order a dry run shows, until one answers.${schema.description ? ` ${schema.description}.` : ''} A miss is a normal answer with hit false.)`,
      inputSchema: {
        ...schema,
        type: 'object',
        properties: { ...schema.properties, ...Object.fromEntries(offered.map(([k, o]) => [k, o.schema])) },
        ...(schema.required ? { required: schema.required } : {}),
      },
      annotations: PAID,
      call: (http, args) => callRouted(http, path, args, names),
    });
  }
  return tools;
}
