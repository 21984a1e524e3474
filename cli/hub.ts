// `svc hub publish DIR | check ID[@N] | list [--mine] | show ID | run ID field=value … | retire ID |
// mcp …`: the tool hub (docs/hub.md).
import { readFile } from 'node:fs/promises';
import { basename, join, resolve } from 'node:path';
import { defineCommand } from 'citty';
import { asCommands } from './hints.ts';
import { asTeam, baseUrl, failureOf, pathId, problemsOf, request, teamToken } from './http.ts';
import { CliFailure, EXIT } from './fail.ts';
import { kindOf, parseFields } from './fields.ts';
import { tellAnswer } from './answer.ts';
import { hubMcp } from './hub-mcp.ts';
import { show, viewTool } from './hub-show.ts';
import { confirm } from './confirm.ts';
import { json, note, out, pairs, printJson, table, usd, usdOf } from './print.ts';

const FILES = ['tool.json', 'input.schema.json', 'output.schema.json', 'check.json'] as const;
/** a publish runs the tool's check and a run its steps, each step up to a routed call's deadline */
const LONG_MS = 5 * 60_000;

async function readFiles(dir: string): Promise<Record<string, string>> {
  const files: Record<string, string> = {};
  for (const name of FILES) {
    try {
      files[name] = await readFile(join(dir, name), 'utf8');
    } catch {
      throw new CliFailure(`${join(dir, name)} cannot be read; a tool folder holds ${FILES.join(', ')}.`, EXIT.usage);
    }
  }
  return files;
}

interface Published {
  tool_id: string;
  version: number;
  status: string;
  reason?: string;
  check: { ok: boolean; cost_micro: number; ms: number };
}

/** the publish answer for people; exit 3 when the version did not go live */
function tellPublished(res: Published, asJson: boolean): void {
  if (asJson) printJson(res);
  else
    out(
      pairs({
        tool: `${res.tool_id}@${res.version}`,
        status: res.status,
        ...(res.reason ? { reason: asCommands(res.reason) } : {}),
        check: `${res.check.ok ? 'passed' : 'did not pass'}, cost ${usd(res.check.cost_micro)}`,
      }),
    );
  if (res.status !== 'live' || !res.check.ok) process.exitCode = EXIT.miss;
}

const publish = defineCommand({
  meta: { name: 'publish', description: 'Publish a new version from a folder of the four files; its check runs at once' },
  args: {
    dir: { type: 'positional', required: true, description: 'folder holding tool.json, input.schema.json, output.schema.json, check.json' },
    id: { type: 'string', description: 'tool id (default: the folder name)' },
    json,
  },
  async run({ args }) {
    const files = await readFiles(args.dir);
    const toolId = args.id ?? basename(resolve(args.dir));
    const a = await request(`${baseUrl()}/hub/tools`, {
      body: { tool_id: toolId, files },
      headers: { 'x-svc-token': teamToken() },
      timeoutMs: LONG_MS,
      label: 'publishing and checking',
    });
    // every problem of a refused tool on a line of its own, as the catalog build lists them
    const problems = a.status === 422 ? problemsOf(a) : [];
    if (problems.length > 1)
      throw new CliFailure(`the hub refused ${toolId} (${problems.length} problems):\n${problems.map((p) => `  ${p}`).join('\n')}`, EXIT.refused, a.data);
    if (a.status >= 300) throw failureOf(a);
    tellPublished(a.data as Published, args.json);
  },
});

const check = defineCommand({
  meta: {
    name: 'check',
    description: "Run a version's check again on your balance (the newest, or ID@N): shows its worst cost first and asks (--yes skips the question)",
  },
  args: {
    id: { type: 'positional', required: true, description: 'tool id, or id@N for one version' },
    yes: { type: 'boolean', default: false, description: 'run it without asking' },
    json,
  },
  async run({ args }) {
    const path = `/hub/tools/${pathId(args.id)}/check`;
    const plan = await asTeam<{ version: number; status: string; worst_cost_micro: number }>(path, { method: 'POST', headers: { 'x-svc-route-dry-run': '1' } });
    const cost = `The check of ${args.id.split('@')[0]}@${plan.version} (${plan.status}) costs at most ${usd(plan.worst_cost_micro)}, charged to your balance.`;
    if (args.yes) note(cost);
    else await confirm(`${cost} Run it?`);
    tellPublished(await asTeam<Published>(path, { method: 'POST', timeoutMs: LONG_MS, label: 'checking' }), args.json);
  },
});

interface ListedTool {
  tool_id: string;
  name: string;
  price_usd: number;
  version: number;
  status?: string;
  live_version?: number | null;
  mine: boolean;
  reason?: string;
}

const list = defineCommand({
  meta: { name: 'list', description: 'The tools you may run now; with --mine, every tool your team made, whatever its state' },
  args: { mine: { type: 'boolean', default: false, description: 'your own tools: unchecked, failed, live and retired' }, json },
  async run({ args }) {
    const { tools } = await asTeam<{ tools: ListedTool[] }>(`/hub/tools${args.mine ? '?mine=1' : ''}`);
    if (args.json) return printJson({ tools });
    if (!tools.length) return note(args.mine ? 'your team has published no tool yet; svc hub publish DIR' : 'no tool is live yet');
    out(
      args.mine
        ? table(
            ['TOOL', 'NEWEST', 'STATUS', 'LIVE', 'PRICE', 'NOTE'],
            tools.map((t) => [t.tool_id, t.version, t.status, t.live_version ?? 'none', usdOf(t.price_usd), asCommands(t.reason ?? '')]),
          )
        : table(
            ['TOOL', 'VERSION', 'PRICE', 'MINE', 'NAME'],
            tools.map((t) => [t.tool_id, t.version, usdOf(t.price_usd), t.mine ? 'yes' : '', t.name]),
          ),
    );
  },
});

const run = defineCommand({
  meta: { name: 'run', description: 'Run a tool: svc hub run verified-work-email domain=acme.com full_name="Jane Doe"' },
  args: {
    id: { type: 'positional', required: true, description: 'tool id, or id@N for a pinned version' },
    fields: { type: 'positional', required: false, description: 'field=value … of its input (field:=JSON for any JSON value)' },
    json,
  },
  async run({ args }) {
    const headers = { 'x-svc-token': teamToken() };
    // the input schema gives each field's type, so `count=3` is sent as a number
    const props = (await viewTool(args.id)).input_schema.properties ?? {};
    const input = parseFields(args._.slice(1), Object.fromEntries(Object.entries(props).map(([k, p]) => [k, kindOf(p.type)])));
    const a = await request(`${baseUrl()}/hub/tools/${pathId(args.id)}/run`, { body: { input }, headers, timeoutMs: LONG_MS, label: `running ${args.id}` });
    tellAnswer(a, args.json, (svc) => svc.stopped === 'miss');
  },
});

const retire = defineCommand({
  meta: { name: 'retire', description: 'Retire every version of your tool, for good (asks first; --yes skips the question); runs then answer 410' },
  args: {
    id: { type: 'positional', required: true, description: 'tool id' },
    yes: { type: 'boolean', default: false, description: 'retire without asking' },
    json,
  },
  async run({ args }) {
    if (!args.yes)
      await confirm(`Retire ${args.id}? This cannot be undone: every version stops taking runs and no new version can be published; the id stays your team's.`);
    const res = await asTeam<{ note: string }>(`/hub/tools/${pathId(args.id)}`, { method: 'DELETE' });
    if (args.json) printJson(res);
    else note(res.note);
  },
});

export const hub = defineCommand({
  meta: { name: 'hub' },
  subCommands: { publish, check, list, show, run, retire, mcp: hubMcp },
});
