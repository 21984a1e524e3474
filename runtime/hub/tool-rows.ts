// Live tools as rows of /catalog/search, /catalog/find and GET /hub/tools?q=: scored against the
// query by the catalog's own rules (language/tool-search.ts), with what a caller compares: the
// price per run, the maker, the last check and whether the steps can be served today.
import type { AppContext } from '../context/context.ts';
import type { SearchEngine } from '../../language/search.ts';
import type { ReviewSummary } from '../../language/types.ts';
import { scoreTools, toolWords, type ToolWords } from '../../language/tool-search.ts';
import { liveToolsOf, type LiveTool, type Serving } from './live-tools.ts';

export interface ToolRow {
  kind: 'tool';
  /** how batch and search name a tool: hub:<tool_id> */
  endpoint_id: string;
  tool_id: string;
  name: string;
  summary: string;
  /** the maker's team slug */
  maker: string;
  capability: 'hub';
  /** the capabilities its steps use */
  capabilities: string[];
  /** the tool's price per run (the steps are paid on top, at what they cost) */
  usd: number;
  price_micro: number;
  version: number;
  check: { ok: boolean; at: string };
  serving: Serving;
  /** what teams that used it said (POST /reviews as hub:<tool_id>), when any did */
  reviews?: ReviewSummary;
}

/** per engine (a catalog reload makes a new one), each tool version's words: encoded once */
const wordsMemo = new WeakMap<SearchEngine, Map<string, ToolWords>>();

function wordsOf(ctx: AppContext, engine: SearchEngine, t: LiveTool): ToolWords {
  let memo = wordsMemo.get(engine);
  if (!memo) wordsMemo.set(engine, (memo = new Map()));
  const key = `${t.tool_id}@${t.version}`;
  let words = memo.get(key);
  if (!words) {
    const capabilityOf = rowCapabilities(engine);
    words = toolWords(
      engine,
      t.name,
      t.tool_id,
      t.summary,
      liveToolsOf(ctx).capabilities(t.calls, (id) => capabilityOf.get(id)),
    );
    memo.set(key, words);
  }
  return words;
}

const capabilityMemo = new WeakMap<SearchEngine, Map<string, string>>();
function rowCapabilities(engine: SearchEngine): Map<string, string> {
  let m = capabilityMemo.get(engine);
  if (!m) capabilityMemo.set(engine, (m = new Map(engine.rows.map((r) => [r.endpoint_id, r.capability]))));
  return m;
}

/** a tool's review summary, as a spread: nothing when no team reviewed it */
export function reviewsOf(ctx: AppContext, toolId: string): { reviews?: ReviewSummary } {
  const reviews = ctx.reviews.summary(`hub:${toolId}`);
  return reviews ? { reviews } : {};
}

/** a live tool as a row, whatever the query */
export async function toolRow(ctx: AppContext, engine: SearchEngine, t: LiveTool): Promise<ToolRow> {
  const tools = liveToolsOf(ctx);
  const capabilityOf = rowCapabilities(engine);
  const maker = await ctx.state.teamById(t.team_id);
  return {
    kind: 'tool',
    endpoint_id: `hub:${t.tool_id}`,
    tool_id: t.tool_id,
    name: t.name,
    summary: t.summary,
    maker: maker?.slug ?? '',
    capability: 'hub',
    capabilities: tools.capabilities(t.calls, (id) => capabilityOf.get(id)),
    usd: t.price_micro / 1_000_000,
    price_micro: t.price_micro,
    version: t.version,
    check: { ok: t.check?.ok ?? true, at: t.check?.at ?? t.live_at },
    serving: tools.serving(t.calls),
    ...reviewsOf(ctx, t.tool_id),
  };
}

export interface ToolHit {
  tool: LiveTool;
  score: number;
  /** capabilities whose operations answer the query as well as the tool (ToolScore.alone) */
  alone: string[];
}

/** the live tools that match `q`, best first (then cheaper, then id), with their scores; rows are built later, for the tools shown */
export async function toolHits(ctx: AppContext, engine: SearchEngine, q: string): Promise<ToolHit[]> {
  const live = await liveToolsOf(ctx).current();
  if (!live.length) return [];
  const scores = scoreTools(
    engine,
    q,
    live.map((t) => wordsOf(ctx, engine, t)),
  );
  return live
    .map((tool, i) => ({ tool, ...scores[i] }))
    .filter((h) => h.score > 0)
    .sort((a, b) => b.score - a.score || a.tool.price_micro - b.tool.price_micro || a.tool.tool_id.localeCompare(b.tool.tool_id));
}

/** a tool's place in a ranked list, before its row is built */
export interface RankedTool {
  hit: ToolHit;
  score: number;
  /** every tool counts as one capability, `hub`, where a list keeps a few per capability */
  capability: 'hub';
}

/**
 * Operations and tools in one list, best first: a tool whose need one of its capabilities meets
 * alone ranks just below that capability's best operation here, not above it; on equal scores the
 * operation comes first. Each tool answers with the score it was ordered by.
 */
export function withTools<O extends { score: number; capability: string }>(operations: O[], tools: ToolHit[]): Array<O | RankedTool> {
  const best = new Map<string, number>();
  for (const o of operations) best.set(o.capability, Math.max(best.get(o.capability) ?? 0, o.score));
  const ranked = tools.map((hit): RankedTool => {
    const below = Math.min(...hit.alone.map((c) => (best.has(c) ? best.get(c)! - 0.001 : Number.POSITIVE_INFINITY)));
    return { hit, score: Math.round(Math.min(hit.score, below) * 1000) / 1000, capability: 'hub' };
  });
  // a stable sort: operations come first on equal scores
  return [...operations, ...ranked].sort((a, b) => b.score - a.score);
}

/** the ranked list with each tool's row built: called on the slice shown, so a large store costs a search only the rows it answers */
export function withToolRows<O extends object>(
  ctx: AppContext,
  engine: SearchEngine,
  list: Array<O | RankedTool>,
): Promise<Array<O | (ToolRow & { score: number })>> {
  return Promise.all(list.map(async (x) => ('hit' in x ? { ...(await toolRow(ctx, engine, x.hit.tool)), score: x.score } : x)));
}
