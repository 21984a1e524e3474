// `svc hub show ID[@N]`: a tool's page in the terminal: who made it, what a run costs (price, worst
// steps), whether it works today (last check, serving), how its runs went, what it takes and
// returns as tables, its versions with dates, and paste-ready calls.
import { defineCommand } from 'citty';
import { asTeam, pathId } from './http.ts';
import { json, out, pairs, printJson, table, usd } from './print.ts';

interface Schema {
  properties?: Record<string, { type?: unknown; enum?: unknown[]; description?: string }>;
  required?: string[];
}
export interface ToolView {
  tool_id: string;
  team: string;
  name: string;
  summary: string;
  price_micro: number;
  status: string;
  version: number;
  live_version: number | null;
  reason?: string;
  runs?: number;
  earnings_micro?: number;
  input_schema: Schema;
  output_schema: Schema;
  versions: Array<{ version: number; status: string; created_at: string; live_at?: string; reason?: string; pinnable_until?: string }>;
  maker: { slug: string; name: string };
  worst_step_cost_micro: number;
  worst_cost_micro: number;
  last_check: { ok: boolean; at: string; cost_micro: number; ms: number } | null;
  serving: { ok: boolean; problems: string[] };
  usage: { said: string };
  call_templates: Record<string, string>;
  reviews?: { teams: number; share: Record<string, number> };
}

export const viewTool = (ref: string) => asTeam<ToolView>(`/hub/tools/${pathId(ref)}`);

const typeOf = (p: { type?: unknown; enum?: unknown[] }) => (p.enum ? p.enum.map((v) => JSON.stringify(v)).join(' | ') : String(p.type ?? 'any'));
const fields = (s: Schema) =>
  table(
    ['FIELD', 'TYPE', 'REQUIRED', 'ABOUT'],
    Object.entries(s.properties ?? {}).map(([k, p]) => [k, typeOf(p), (s.required ?? []).includes(k) ? 'yes' : '', p.description ?? '']),
  );

export const show = defineCommand({
  meta: { name: 'show', description: 'Show a tool: price and worst cost, checks, runs, schemas, versions and call templates (ID or ID@N)' },
  args: { id: { type: 'positional', required: true, description: 'tool id, or id@N for one version' }, json },
  async run({ args }) {
    const t = await viewTool(args.id);
    if (args.json) return printJson(t);
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
              reviews: `${t.reviews.teams} teams: ${Object.entries(t.reviews.share)
                .map(([k, v]) => `${k} ${Math.round(v * 100)}%`)
                .join(', ')}`,
            }
          : {}),
        ...(t.runs !== undefined ? { earnings: usd(t.earnings_micro) } : {}),
        input: Object.keys(t.input_schema.properties ?? {}).join(', '),
      }),
    );
    out(`\ninput:\n${fields(t.input_schema)}\n\noutput:\n${fields(t.output_schema)}`);
    out(
      `\n${table(
        ['VERSION', 'STATUS', 'CREATED', 'LIVE', 'NOTE'],
        t.versions.map((v) => [v.version, v.status, v.created_at, v.live_at, v.reason ?? (v.pinnable_until ? `pinnable until ${v.pinnable_until}` : '')]),
      )}`,
    );
    out(
      `\ncall it:\n${Object.entries(t.call_templates)
        .map(([k, v]) => `${k.toUpperCase().padEnd(5)}  ${v}`)
        .join('\n')}`,
    );
  },
});
