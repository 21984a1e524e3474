// Hub tools in the catalog tools' answers (search_catalog, find_operations, show_operation) as an
// agent may see them: only the tools of its team's MCP set, their makers' words as plain capped
// text, as tools/list gives them. Another team's tool the team did not choose is left out, row and
// words: a team's words reach another team's agents only when that team chose them (docs/hub.md).
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { fromResponse } from './answers.ts';
import { mcpSetOf } from './hub-tools.ts';
import { unlisted } from './hub-unlisted.ts';
import { plainTool } from '../util/plain-text.ts';
import type { SvcFetch } from './svc-http.ts';

/** how search and batch name a hub tool: hub:<tool_id> */
export const hubIdOf = (endpointId: string): string | null => (endpointId.startsWith('hub:') ? endpointId.slice('hub:'.length) : null);

/** the rows an agent may see, hub tools' cleaned; the MCP set is read only when a row is a hub tool's */
export async function chosenRows<R extends { endpoint_id: string }>(http: SvcFetch, rows: R[]): Promise<R[]> {
  if (!rows.some((r) => hubIdOf(r.endpoint_id) !== null)) return rows;
  const chosen = new Set((await mcpSetOf(http)).tools.map((t) => t.tool_id));
  return rows.flatMap((r) => {
    const id = hubIdOf(r.endpoint_id);
    return id === null ? [r] : chosen.has(id) ? [plainTool(r)] : [];
  });
}

/** the page the team reads at GET /hub/tools/{id}, with its maker's words as plain text; the files (the same words, raw) left out */
function page({ files: _raw, ...tool }: Record<string, unknown>): Record<string, unknown> {
  return plainTool({ ...tool, maker: plainTool(tool.maker as object) });
}

/** show_operation of hub:<id>: the tool's page, for a tool of the caller's MCP set */
export async function showHubTool(http: SvcFetch, id: string): Promise<CallToolResult> {
  const set = await mcpSetOf(http);
  if (!set.tools.some((t) => t.tool_id === id)) return unlisted(http, id, set.added.includes(id));
  return fromResponse(await http(`/hub/tools/${encodeURIComponent(id)}`), page);
}
