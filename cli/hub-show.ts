// `svc hub show ID[@N]`: a tool's page in the terminal: who made it, what a run costs (price, worst
// steps), whether it works today (last check, serving), how its runs went, what it takes and
// returns as tables, its versions with dates, and paste-ready calls.
import { defineCommand } from 'citty';
import { asTeam, pathId } from './http.ts';
import { json, out, pairs, printJson, table, usd } from './print.ts';
import { fieldType, type ToolPage, type ToolSchema } from '../language/tool-page.ts';

/** how search rows and `svc batch` name a hub tool: hub:<tool_id> */
export const TOOL_PREFIX = 'hub:';

export const viewTool = (ref: string) => asTeam<ToolPage>(`/hub/tools/${pathId(ref)}`);

const fields = (s: ToolSchema) =>
  table(
    ['FIELD', 'TYPE', 'REQUIRED', 'ABOUT'],
    Object.entries(s.properties ?? {}).map(([k, p]) => [k, fieldType(p), (s.required ?? []).includes(k) ? 'yes' : '', p.description ?? '']),
  );

export const show = defineCommand({
  meta: { name: 'show', description: 'Show a tool: price and worst cost, checks, runs, schemas, versions and call templates (ID or ID@N)' },
  args: { id: { type: 'positional', required: true, description: 'tool id, or id@N for one version' }, json },
  run: ({ args }) => showTool(args.id, args.json),
});

/** The tool's page, for `svc hub show ID` and `svc show hub:ID` (the id a search row names). */
export async function showTool(ref: string, asJson: boolean): Promise<void> {
  const t = await viewTool(ref);
  if (asJson) return printJson(t);
  const check = t.last_check;
  out(
    pairs({
      tool: `${t.tool_id}@${t.version}`,
      name: t.name,
      maker: `${t.maker.name} (${t.maker.slug})`,
      summary: t.summary,
      price: `${usd(t.price_micro)} a run`,
      worst_steps: `${usd(t.worst_step_cost_micro)} (a run costs at most ${usd(t.worst_cost_micro)})`,
      status: t.status,
      live_version: t.live_version ?? 'none',
      ...(t.reason ? { reason: t.reason } : {}),
      serving: t.serving.ok ? 'yes' : `no: ${t.serving.problems.join(' ')}`,
      last_check: check ? `${check.ok ? 'passed' : 'failed'} on ${check.at}, cost ${usd(check.cost_micro)}, ${check.ms} ms` : 'never ran',
      usage: t.usage.said,
      ...(t.reviews
        ? {
            reviews: `${t.reviews.teams} ${t.reviews.teams === 1 ? 'team' : 'teams'}: ${Object.entries(t.reviews.share)
              .map(([k, v]) => `${k} ${Math.round(v * 100)}%`)
              .join(', ')}`,
          }
        : {}),
      ...(t.runs !== undefined ? { earnings: usd(t.earnings_micro) } : {}),
      input: Object.keys(t.input_schema.properties ?? {}).join(', '),
    }),
  );
  out(`\ninput:\n${fields(t.input_schema)}\n\noutput:\n${fields(t.output_schema)}`);
  // the maker's view carries each version's runs and earnings; another team's carries neither
  const maker = t.runs !== undefined;
  out(
    `\n${table(
      ['VERSION', 'STATUS', 'CREATED', 'LIVE', ...(maker ? ['RUNS', 'EARNINGS'] : []), 'NOTE'],
      t.versions.map((v) => [
        v.version,
        v.status,
        v.created_at,
        v.live_at,
        ...(maker ? [v.runs ?? 0, usd(v.earnings_micro ?? 0)] : []),
        v.reason ?? (v.pinnable_until ? `pinnable until ${v.pinnable_until}` : ''),
      ]),
    )}`,
  );
  out(
    `\ncall it:\n${Object.entries(t.call_templates)
      .map(([k, v]) => `${k.toUpperCase().padEnd(5)}  ${v}`)
      .join('\n')}`,
  );
}
