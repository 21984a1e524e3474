// A team's MCP set: which hub tools its agents see over MCP (its own live tools, and other teams'
// tools it added by id). The logic lives in runtime/hub/mcp-set.ts.
import { getRouterParam, type H3Event } from 'h3';
import { route } from '../http/declared-route.ts';
import { perContext } from '../context/context.ts';
import { parseToolId } from '../hub/access.ts';
import { McpSet } from '../hub/mcp-set.ts';
import type { Team } from '../state/index.ts';

const setOf = perContext((ctx) => new McpSet(ctx));
const toolId = (event: H3Event) => parseToolId(getRouterParam(event, 'tool_id', { decode: true }) ?? '', 'The MCP set');
const hub = { tags: ['hub', 'mcp'], auth: 'team' } as const;
const answer = '{tools: the tools listed over MCP, with maker, price and input schema; added: the ids added from other teams}';

export const hubMcpRoutes = [
  route<{ team: Team }>({
    ...hub,
    method: 'GET',
    path: '/hub/mcp-tools',
    summary: "Your MCP set: the hub tools your agents see over MCP, your own live tools and the other teams' tools you added",
    responses: { 200: answer, 401: 'No or bad credential' },
    handle: ({ ctx, team }) => setOf(ctx).list(team),
  }),
  route<{ team: Team }>({
    ...hub,
    method: 'PUT',
    path: '/hub/mcp-tools/{tool_id}',
    summary: "Add another team's live tool to your MCP set (your own are always in it)",
    request: { about: { tool_id: 'tool id' } },
    responses: {
      200: answer,
      401: 'No or bad credential',
      404: 'Unknown, or not visible to you',
      409: 'The set is full',
      410: 'Retired tool',
      422: 'Not a tool id',
    },
    handle: ({ ctx, event, team }) => setOf(ctx).add(team, toolId(event)),
  }),
  route<{ team: Team }>({
    ...hub,
    method: 'DELETE',
    path: '/hub/mcp-tools/{tool_id}',
    summary: 'Remove a tool you added from your MCP set',
    request: { about: { tool_id: 'tool id' } },
    responses: { 200: answer, 401: 'No or bad credential', 404: 'Not in your set', 409: 'Your own tool', 422: 'Not a tool id' },
    handle: ({ ctx, event, team }) => setOf(ctx).remove(team, toolId(event)),
  }),
];
