// The hub tools of the caller's MCP set (its own live tools and the ones it added by id; GET
// /hub/mcp-tools), one MCP tool each, read at every listing (tools go live and retire while a
// client is connected). What a maker wrote reaches the agent only as plain, capped text, marked as
// the maker's words with the maker named; the price per run leads the description. Calling one
// runs it on the caller's balance (POST /hub/tools/{id}/run).
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { McpSetAnswer, McpSetRow } from '../hub/mcp-set.ts';
import { errorResult, fromResponse } from './answers.ts';
import { plainSchema, plainText } from './plain-text.ts';
import type { SvcFetch } from './svc-http.ts';
import { PAID, type McpTool } from './tool.ts';

const PREFIX = 'hub_';
/** caps on a maker's words in a listing, in characters */
const NAME_MAX = 80;
const SUMMARY_MAX = 300;
const FIELD_TEXT_MAX = 200;

export const hubToolId = (name: string): string | null => (name.startsWith(PREFIX) ? name.slice(PREFIX.length) : null);

async function mcpSet(http: SvcFetch): Promise<McpSetRow[]> {
  const r = await http('/hub/mcp-tools');
  return r.ok ? ((await r.json()) as McpSetAnswer).tools : [];
}

const run = (http: SvcFetch, id: string, args: Record<string, unknown>) =>
  http(`/hub/tools/${encodeURIComponent(id)}/run`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ input: args }),
  }).then((r) => fromResponse(r));

/** run a hub tool of the caller's MCP set; a tool outside it is refused as a listing would not show it */
export async function runHubTool(http: SvcFetch, id: string, args: Record<string, unknown>): Promise<CallToolResult> {
  if (!(await mcpSet(http)).some((t) => t.tool_id === id)) {
    return errorResult(404, {
      detail: `No tool '${PREFIX}${id}' in your team's MCP set; tools/list names them (a team adds another team's hub tool with svc hub mcp add ${id}).`,
    });
  }
  return run(http, id, args);
}

function description(t: McpSetRow): string {
  const who = t.mine ? 'your own team' : `team '${t.maker}'`;
  return (
    `Paid: ${t.price_usd} USD a run plus its steps' charges, from your balance. Hub tool ${t.tool_id}@${t.version}, made by ${who}, not by svc. ` +
    `The maker's words, unchecked: "${plainText(t.summary, SUMMARY_MAX)}"`
  );
}

export async function hubTools(http: SvcFetch): Promise<McpTool[]> {
  return (await mcpSet(http)).map((t) => ({
    name: `${PREFIX}${t.tool_id}`,
    title: `${plainText(t.name, NAME_MAX)} (hub, by ${t.maker}, paid)`,
    description: description(t),
    inputSchema: { ...(plainSchema(t.input_schema, FIELD_TEXT_MAX) as Record<string, unknown>), type: 'object' },
    annotations: PAID,
    call: (h, args) => run(h, t.tool_id, args),
  }));
}
