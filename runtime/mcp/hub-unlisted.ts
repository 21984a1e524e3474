// The refusal for a hub tool an agent names but its team's MCP set does not list (a call or a
// show_operation), with the advice that fits why: retired (taken out with `svc hub mcp remove`
// when the team had added it), not live yet (the team's own), another team's tool not added (added
// with `svc hub mcp add`), or none the team can see. Nothing runs and nothing is charged.
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { errorResult } from './answers.ts';
import type { SvcFetch } from './svc-http.ts';

export async function unlisted(http: SvcFetch, id: string, added: boolean): Promise<CallToolResult> {
  // the tool as the team reads it: 410 once retired (its maker still reads it, with retired_at)
  const r = await http(`/hub/tools/${encodeURIComponent(id)}`);
  const tool = (await r.json().catch(() => ({}))) as { detail?: string; retired_at?: string; live_version?: number | null };
  const remove = added ? ` It is still among the tools your team added: svc hub mcp remove ${id} takes it out.` : '';
  if (r.status === 410 || tool.retired_at) {
    return errorResult(410, { detail: `${r.status === 410 ? tool.detail : `Tool '${id}' was retired on ${tool.retired_at}; it takes no calls.`}${remove}` });
  }
  if (!r.ok) return errorResult(404, { detail: `No hub tool '${id}' that your team can see; tools/list names the ones your agents may call.${remove}` });
  // only its maker reads a tool with no live version
  if (tool.live_version === null) return errorResult(409, { detail: `Your tool '${id}' has no live version; it is listed once a version passes its check.` });
  return errorResult(404, {
    detail: `No tool 'hub_${id}' in your team's MCP set; tools/list names them (a team adds another team's hub tool with svc hub mcp add ${id}).`,
  });
}
