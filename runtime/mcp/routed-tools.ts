// One tool per routed capability, generated from svc's OpenAPI document (itself generated from the
// built catalog): the capability's request schema (identity fields and filters, with the catalog's
// descriptions) plus the route options it takes as optional arguments, sent on as the route
// headers (`verify` only where the capability has verification: OpenAPI lists that header there
// only). Refusals name the arguments, never the headers they became.
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { fromResponse } from './answers.ts';
import { headersAsArguments, ROUTE_OPTIONS, routeHeaders, splitArgs } from './route-options.ts';
import type { SvcFetch } from './svc-http.ts';
import { PAID, type McpTool } from './tool.ts';

interface OpenApiOperation {
  operationId?: string;
  summary?: string;
  tags?: string[];
  parameters?: Array<{ name: string; in: string }>;
  requestBody?: { content?: Record<string, { schema?: { properties?: Record<string, object>; required?: string[]; description?: string } }> };
}

/** MCP clients accept [a-zA-Z0-9_-] in a tool name: people.email.find → people_email_find */
export const toolName = (capability: string): string => capability.replace(/[^a-zA-Z0-9_-]/g, '_');

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

async function callRouted(http: SvcFetch, path: string, args: Record<string, unknown>, offered: ReadonlySet<string>): Promise<CallToolResult> {
  // an argument the tool does not offer goes in the body, where svc names it as an unknown field
  const { options, rest } = splitArgs(args, offered);
  return fromResponse(await http(path, { method: 'POST', headers: routeHeaders(options), body: JSON.stringify(rest) }), shaped, { rename: headersAsArguments });
}

export function routedTools(openapi: { paths: Record<string, Record<string, OpenApiOperation>> }): McpTool[] {
  const tools: McpTool[] = [];
  for (const [path, methods] of Object.entries(openapi.paths)) {
    const op = methods.post;
    if (!op?.tags?.includes('routed') || !op.operationId?.startsWith('svc.')) continue;
    const capability = op.operationId.slice('svc.'.length);
    const schema = op.requestBody?.content?.['application/json']?.schema ?? {};
    const headers = new Set((op.parameters ?? []).filter((p) => p.in === 'header').map((p) => p.name.toLowerCase()));
    const offered = Object.entries(ROUTE_OPTIONS).filter(([, o]) => headers.has(o.header.toLowerCase()));
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
