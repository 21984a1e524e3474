// The hub's live tools the caller may run, one MCP tool each, read from GET /hub/tools at every
// listing (tools go live and retire while a client is connected); calling one runs it on the
// caller's balance (POST /hub/tools/{id}/run).
import { fromResponse } from './answers.ts';
import type { SvcFetch } from './svc-http.ts';
import type { McpTool } from './tool.ts';

const PREFIX = 'hub_';

interface HubListing {
  tool_id: string;
  name: string;
  summary: string;
  price_usd: number;
  version: number;
  input_schema: McpTool['inputSchema'];
}

export const hubToolId = (name: string): string | null => (name.startsWith(PREFIX) ? name.slice(PREFIX.length) : null);

export function runHubTool(http: SvcFetch, id: string, args: Record<string, unknown>) {
  return http(`/hub/tools/${encodeURIComponent(id)}/run`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ input: args }) }).then((r) => fromResponse(r));
}

export async function hubTools(http: SvcFetch): Promise<McpTool[]> {
  const r = await http('/hub/tools');
  if (!r.ok) return [];
  const { tools } = (await r.json()) as { tools: HubListing[] };
  return tools.map((t) => ({
    name: `${PREFIX}${t.tool_id}`,
    description: `${t.name}: ${t.summary} (hub tool ${t.tool_id}@${t.version}, ${t.price_usd} USD a run plus its steps' charges)`,
    inputSchema: { ...t.input_schema, type: 'object' },
    call: (h, args) => runHubTool(h, t.tool_id, args),
  }));
}
