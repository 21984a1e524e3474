// GET /hub/tools: the store's shelf. Every live tool (best match first with `q`, else by id), narrowed
// by a capability its steps use, its maker or a price ceiling, a page at a time; the maker also finds
// its own tools that are not live (unchecked, failed, retired), each with its status.
import type { AppContext } from '../context/context.ts';
import type { Team } from '../state/index.ts';
import { parseUsdToMicro } from '../state/money.ts';
import { liveToolsOf } from './live-tools.ts';
import { toolHits, toolRow, type ToolRow } from './tool-rows.ts';

export interface BrowseQuery {
  q?: string;
  capability?: string;
  maker?: string;
  max_price_usd?: string;
  limit?: number;
  cursor?: string;
}

export const BROWSE_PAGE = 50;

type Listed = (ToolRow & { status: 'live'; mine: boolean; price_usd: number; input_schema: Record<string, unknown>; score?: number }) | OwnRow;
/** one of the maker's own tools that is not live, as GET /hub/tools?mine=1 shows it */
export type OwnRow = Record<string, unknown> & { tool_id: string; status: string; price_usd: number };

/** `own`: the team's own tools whatever their state (Hub.mine) */
export async function browse(
  ctx: AppContext,
  team: Team,
  query: BrowseQuery,
  own: OwnRow[],
): Promise<{ tools: Listed[]; total: number; next_cursor: string | null }> {
  const engine = await ctx.catalog.search();
  const live = await liveToolsOf(ctx).current();
  const byId = new Map(live.map((t) => [t.tool_id, t]));
  const q = query.q?.trim() ?? '';
  const ranked = q
    ? await Promise.all((await toolHits(ctx, engine, q)).map(async (h) => ({ row: await toolRow(ctx, engine, h.tool), score: h.score })))
    : await Promise.all(live.map(async (t) => ({ row: await toolRow(ctx, engine, t), score: undefined })));
  const rows: Listed[] = ranked.map(({ row, score }) => {
    const t = byId.get(row.tool_id)!;
    return { ...row, status: 'live', mine: t.team_id === team.id, price_usd: row.usd, input_schema: t.input_schema, ...(score === undefined ? {} : { score }) };
  });
  // the maker's own tools that no one else may run; with words, only those whose name or summary holds one of them
  const words = q.toLowerCase().split(/\s+/).filter(Boolean);
  const hidden = own.filter(
    (o) => !byId.has(o.tool_id) && (!words.length || words.some((w) => `${o.tool_id} ${o.name} ${o.summary}`.toLowerCase().includes(w))),
  );
  // the query schema admits only USD amounts
  const ceiling = query.max_price_usd ? parseUsdToMicro(query.max_price_usd) : null;
  const kept = [...rows, ...hidden].filter(
    (r) =>
      (!query.capability || ('capabilities' in r && (r.capabilities as string[]).includes(query.capability))) &&
      (!query.maker || ('maker' in r ? r.maker === query.maker : team.slug === query.maker)) &&
      (ceiling === null || parseUsdToMicro(r.price_usd)! <= ceiling),
  );
  const from = query.cursor ? Number(query.cursor) : 0;
  const limit = query.limit ?? BROWSE_PAGE;
  const page = kept.slice(from, from + limit);
  return { tools: page, total: kept.length, next_cursor: from + limit < kept.length ? String(from + limit) : null };
}
