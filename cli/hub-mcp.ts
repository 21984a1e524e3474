// `svc hub mcp [list] | add ID | remove ID`: the hub tools your agents see over MCP, your own live
// tools and the other teams' tools you added by id (docs/hub.md, docs/agents.md).
import { defineCommand } from 'citty';
import type { McpSetAnswer } from '../runtime/hub/mcp-set.ts';
import { asTeam, pathId } from './http.ts';
import { json, note, out, printJson, table, usd } from './print.ts';

function tell(set: McpSetAnswer, asJson: boolean): void {
  if (asJson) {
    printJson(set);
    return;
  }
  if (!set.tools.length) note("no hub tool in your MCP set; svc hub mcp add ID adds another team's tool");
  else
    out(
      table(
        ['TOOL', 'VERSION', 'PRICE', 'MAKER', 'NAME'],
        set.tools.map((t) => [t.tool_id, t.version, usd(t.price_micro), t.mine ? 'you' : t.maker, t.name]),
      ),
    );
  const idle = set.added.filter((id) => !set.tools.some((t) => t.tool_id === id));
  if (idle.length) note(`added but not live now (not listed to agents): ${idle.join(', ')}`);
}

const list = defineCommand({
  meta: { name: 'list', description: 'The hub tools your agents see over MCP' },
  args: { json },
  async run({ args }) {
    tell(await asTeam<McpSetAnswer>('/hub/mcp-tools'), args.json);
  },
});

const add = defineCommand({
  meta: { name: 'add', description: "Add another team's hub tool to your MCP set" },
  args: { id: { type: 'positional', required: true, description: 'tool id' }, json },
  async run({ args }) {
    tell(await asTeam<McpSetAnswer>(`/hub/mcp-tools/${pathId(args.id)}`, { method: 'PUT' }), args.json);
  },
});

const remove = defineCommand({
  meta: { name: 'remove', description: 'Remove a tool you added from your MCP set' },
  args: { id: { type: 'positional', required: true, description: 'tool id' }, json },
  async run({ args }) {
    tell(await asTeam<McpSetAnswer>(`/hub/mcp-tools/${pathId(args.id)}`, { method: 'DELETE' }), args.json);
  },
});

// with no subcommand, `svc hub mcp` lists
export const hubMcp = defineCommand({
  meta: { name: 'mcp', description: 'Which hub tools your agents see over MCP: list (the default), add ID, remove ID' },
  args: { json },
  subCommands: { list, add, remove },
  default: 'list',
});
