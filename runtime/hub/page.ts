// What a tool's page adds to its record, for a caller choosing it: the maker's name, what a run
// can cost at worst (its steps' widest plan plus the price), the last check, whether the steps can
// be served today, how its recent runs went (measured, with the sample size said) and paste-ready
// calls for HTTP, the CLI, batch and MCP.
import type { AppContext } from '../context/context.ts';
import type { Team } from '../state/index.ts';
import { sampleFor } from '../../language/call-template.ts';
import { planRun } from './dry-run.ts';
import { liveToolsOf } from './live-tools.ts';
import { reviewsOf } from './tool-rows.ts';
import { specOf } from './spec.ts';
import type { HubStore } from './store.ts';
import type { ToolSpec, VersionRecord } from './types.ts';

/** runs read for the success rate and latency: the newest, two pages */
const SAMPLE_PAGES = 2;
/** fewer runs than this are a thin sample: shown as counts, not as a rate alone */
export const THIN_SAMPLE = 20;

export interface Usage {
  runs: number;
  /** the newest runs measured below */
  sampled: number;
  ok: number;
  success_rate: number | null;
  median_ms: number | null;
  /** sampled < THIN_SAMPLE: read the rate as "ok of sampled" */
  thin: boolean;
  /** the same in words, as the page and `svc hub show` print it */
  said: string;
}

function said(u: Omit<Usage, 'said'>): string {
  if (!u.sampled) return u.runs ? `no run by another team to measure yet; ${u.runs} ${u.runs === 1 ? 'run' : 'runs'} in all` : 'no run yet';
  const rate = u.thin ? `${u.ok} of ${u.sampled} runs ok (too few to call a rate)` : `${Math.round(u.success_rate! * 100)}% ok over the last ${u.sampled} runs`;
  return `${rate}; median ${u.median_ms} ms; ${u.runs} ${u.runs === 1 ? 'run' : 'runs'} in all`;
}

/**
 * How a tool's newest runs went, as its store page says. Only runs that speak of the tool are
 * measured: another team's, ended by the tool (a run the caller's balance or ceiling stopped, which
 * costs a caller nothing to cause, and the maker's own runs, which cost the maker nothing in price,
 * are left out).
 */
export async function usage(store: HubStore, toolId: string, versions: VersionRecord[], makerSlug: string): Promise<Usage> {
  const runs = (await Promise.all(versions.map((v) => store.tally(toolId, v.version)))).reduce((n, t) => n + t.runs, 0);
  const sampled = [];
  let before: number | null = null;
  for (let page = 0; page < SAMPLE_PAGES; page++) {
    const got = await store.runs(toolId, before);
    sampled.push(...got.runs.filter((r) => r.outcome !== 'stopped' && r.team !== makerSlug));
    if (!got.next_cursor) break;
    before = Number(got.next_cursor);
  }
  const ok = sampled.filter((r) => r.outcome === 'ok').length;
  const ms = sampled.map((r) => r.ms).sort((a, b) => a - b);
  const mid = ms.length >> 1;
  const median = ms.length ? (ms.length % 2 ? ms[mid] : Math.round((ms[mid - 1] + ms[mid]) / 2)) : null;
  const measured = {
    runs,
    sampled: sampled.length,
    ok,
    success_rate: sampled.length ? Math.round((ok / sampled.length) * 1000) / 1000 : null,
    median_ms: median,
    thin: sampled.length < THIN_SAMPLE,
  };
  return { ...measured, said: said(measured) };
}

/** paste-ready calls of the tool, with sample values for its input fields */
/** `mine`: the reader made the tool, whose own live tools are in its MCP set already */
export function callTemplates(baseUrl: string, toolId: string, spec: ToolSpec, mine = false): Record<'http' | 'cli' | 'batch' | 'mcp', string> {
  const fields = Object.keys((spec.input_schema.properties ?? {}) as Record<string, unknown>);
  const required = (spec.input_schema.required ?? fields) as string[];
  const sample = Object.fromEntries(required.map((f) => [f, sampleFor(f)]));
  const body = JSON.stringify({ input: sample }).replace(/'/g, `'\\''`);
  const cliValue = (v: unknown) => (typeof v === 'string' ? (/^[\w.@:/-]+$/.test(v) ? v : `'${v.replace(/'/g, `'\\''`)}'`) : `'${JSON.stringify(v)}'`);
  return {
    http: `curl -sS -X POST "${baseUrl}/hub/tools/${toolId}/run" -H "x-svc-token: $SVC_TOKEN" -H 'content-type: application/json' -d '${body}'`,
    cli: `svc hub run ${toolId} ${Object.entries(sample)
      .map(([f, v]) => `${f}${typeof v === 'string' ? '=' : ':='}${cliValue(v)}`)
      .join(' ')}`,
    batch: `svc batch hub:${toolId} rows.csv -o rows-out.csv   # a CSV with the columns ${fields.join(',')}`,
    mcp: mine
      ? `hub_${toolId} in your agents' tools/list: your own live tools are in your team's MCP set already`
      : `svc hub mcp add ${toolId}   # then your agents see it as hub_${toolId} in tools/list`,
  };
}

/** the page's facts of `selected` for `team` */
export async function pageFacts(
  ctx: AppContext,
  store: HubStore,
  team: Team,
  toolId: string,
  makerId: number,
  versions: VersionRecord[],
  selected: VersionRecord,
): Promise<Record<string, unknown>> {
  const spec = specOf(selected);
  const maker = await ctx.state.teamById(makerId);
  const plan = await planRun(ctx, team, spec, {}, selected.price_micro, null);
  const check = selected.check;
  return {
    maker: { slug: maker?.slug ?? '', name: maker?.name ?? '' },
    worst_step_cost_micro: plan.worst_cost_micro - plan.price_micro,
    worst_cost_micro: plan.worst_cost_micro,
    last_check: check ? { ok: check.ok, at: check.at ?? selected.live_at ?? selected.created_at, cost_micro: check.cost_micro, ms: check.ms } : null,
    serving: liveToolsOf(ctx).serving(spec.tool.steps.map((s) => s.call)),
    usage: await usage(store, toolId, versions, maker?.slug ?? ''),
    call_templates: callTemplates(ctx.config.publicUrl, toolId, spec, team.id === makerId),
    ...reviewsOf(ctx, toolId),
  };
}
