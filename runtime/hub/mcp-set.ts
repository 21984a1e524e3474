// A team's MCP set: the hub tools its agents see over MCP. Its own live tools are always in it;
// another team's tool is in it only once the team added it by id, so no maker's tool (or words)
// reaches an agent that did not ask for it. The set lists what can run now: a tool added and later
// retired stays among the ids added (so it can be removed) but is not listed. Rows carry the maker's
// words as MCP lists them (plain capped text), so no door hands an agent the raw ones.
import type { AppContext } from '../context/context.ts';
import { fail } from '../util/fail.ts';
import type { Team } from '../state/index.ts';
import { openTool, retiredSentence } from './access.ts';
import { specOf } from './spec.ts';
import { HubStore } from './store.ts';
import { plainTool } from '../util/plain-text.ts';

/** the most tools a team may add from other teams (its own are not counted) */
export const MAX_MCP_PICKS = 50;

export interface McpSetRow {
  tool_id: string;
  /** the maker's team slug */
  maker: string;
  mine: boolean;
  name: string;
  summary: string;
  version: number;
  price_usd: number;
  price_micro: number;
  input_schema: Record<string, unknown>;
}

export interface McpSetAnswer {
  tools: McpSetRow[];
  /** the other teams' tools added by id, whether or not they can run now */
  added: string[];
}

export class McpSet {
  private store: HubStore;

  constructor(private ctx: AppContext) {
    this.store = new HubStore(ctx.state.atomics);
  }

  async list(team: Team): Promise<McpSetAnswer> {
    const added = await this.store.mcpPicks(team.id);
    const picked = new Set(added);
    const tools: McpSetRow[] = [];
    for (const id of await this.store.toolIds()) {
      const tool = await this.store.tool(id);
      if (!tool || tool.retired_at || (tool.team_id !== team.id && !picked.has(id))) continue;
      const live = await this.store.newestLive(id);
      if (!live) continue;
      const spec = specOf(live);
      const maker = await this.ctx.state.teamById(tool.team_id);
      tools.push(
        plainTool({
          tool_id: id,
          maker: maker?.slug ?? '',
          mine: tool.team_id === team.id,
          name: spec.tool.name,
          summary: spec.tool.summary,
          version: live.version,
          price_usd: live.price_micro / 1_000_000,
          price_micro: live.price_micro,
          input_schema: spec.input_schema,
        }),
      );
    }
    return { tools, added };
  }

  /** add another team's live tool by id (404 when the team may not see it, 410 once retired) */
  async add(team: Team, id: string): Promise<McpSetAnswer> {
    const { tool, maker } = await openTool(this.store, team, id);
    if (tool.retired_at) fail(410, retiredSentence(tool));
    if (!maker) {
      await this.store.editMcpPicks(team.id, (ids) => {
        if (ids.includes(id)) return undefined;
        if (ids.length >= MAX_MCP_PICKS) fail(409, `Your MCP set holds ${MAX_MCP_PICKS} tools added from other teams, the most it takes: remove one first.`);
        return [...ids, id];
      });
    }
    return this.list(team);
  }

  async remove(team: Team, id: string): Promise<McpSetAnswer> {
    let absent = false;
    await this.store.editMcpPicks(team.id, (ids) => {
      absent = !ids.includes(id);
      return absent ? undefined : ids.filter((i) => i !== id);
    });
    if (absent) {
      const tool = await this.store.tool(id);
      if (tool?.team_id === team.id) fail(409, `'${id}' is your own tool: your team's live tools are always in its MCP set; retire the tool to take it out.`);
      fail(404, `'${id}' is not in your MCP set.`);
    }
    return this.list(team);
  }
}
