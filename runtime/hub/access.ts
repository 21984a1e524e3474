// Who may see which tool: the maker sees every version; another team sees a tool only once a
// version of it has gone live (404 before), and gets 403 for the maker's own actions on it.
import type { Team } from '../state/index.ts';
import { fail, invalid } from '../util/fail.ts';
import type { HubStore } from './store.ts';
import type { ToolRecord, VersionRecord } from './types.ts';

export const TOOL_ID = /^[a-z0-9-]{3,64}$/;
const REF = /^([a-z0-9-]{3,64})(?:@([1-9][0-9]{0,8}))?$/;

export interface ToolRef {
  id: string;
  /** the pinned version, null when none was named */
  n: number | null;
}

/** `id` or `id@N` from the path; 422 when it is neither */
export function parseRef(text: string): ToolRef {
  const m = REF.exec(text);
  if (!m)
    invalid([
      {
        loc: ['path', 'tool_id'],
        msg: 'A tool is named by its id (3 to 64 of a-z, 0-9, -), optionally followed by @N for version N.',
        type: 'value_error.tool_id',
      },
    ]);
  return { id: m[1], n: m[2] ? Number(m[2]) : null };
}

/** a bare tool id from the path, for actions on the whole tool; 422 with `@N` (it would not pin anything) */
export function parseToolId(text: string, action: string): string {
  const { id, n } = parseRef(text);
  if (n !== null) invalid([{ loc: ['path', 'tool_id'], msg: `${action} applies to the whole tool: name it without @${n}.`, type: 'value_error.tool_id' }]);
  return id;
}

export interface Opened {
  tool: ToolRecord;
  versions: VersionRecord[];
  maker: boolean;
}

/**
 * The tool and its newest live version, as `team` may see it, without reading every version (a run
 * reads this); 404 when it may not see it at all. A version that went live stays live, so a tool
 * another team may see is one with a live version.
 */
export async function liveTool(store: HubStore, team: Team, id: string): Promise<{ tool: ToolRecord; live: VersionRecord | null; maker: boolean }> {
  const tool = await store.tool(id);
  if (!tool) fail(404, `No tool '${id}' on the hub.`);
  const live = await store.newestLive(id);
  const maker = tool.team_id === team.id;
  if (!maker && !live) fail(404, `No tool '${id}' on the hub.`);
  return { tool, live, maker };
}

/** the tool as `team` may see it, with every version (its page); 404 when it may not see it at all */
export async function openTool(store: HubStore, team: Team, id: string): Promise<Opened> {
  const { tool, maker } = await liveTool(store, team, id);
  return { tool, versions: await store.versions(id), maker };
}

/**
 * The tool, for an action only its maker may take (403 for a team that can see it, 404 otherwise).
 * Its maker's action reads no version, so a publish costs the same at version 2 and 2,000, live or not.
 */
export async function openOwnTool(store: HubStore, team: Team, id: string, action: string): Promise<ToolRecord> {
  const tool = await store.tool(id);
  if (tool?.team_id === team.id) return tool;
  await liveTool(store, team, id);
  fail(403, `Only the team that publishes '${id}' may ${action} it.`);
}

export function retiredSentence(tool: ToolRecord): string {
  return `Tool '${tool.tool_id}' was retired on ${tool.retired_at}; it takes no calls and no new versions.`;
}
