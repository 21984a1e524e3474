// What `svc batch` runs: a routed capability (`people.email.find`) or a tool of the hub
// (`hub:<tool_id>`, `hub:<tool_id>@N`). Either is read from the running svc before any row is sent:
// where its batch goes, the fields a row's subject takes, those every row needs, and the line a row
// sends (a capability's subject as it is; a tool's as a run's `input`). An unpinned tool is pinned
// here, so every row of one output runs one version: the version the output's lines already ran
// (a resume), else the newest live one; a maker's new version never lands mid-list, whose rows
// would then cost and answer differently.
import { existsSync } from 'node:fs';
import type { Fields } from './batch-columns.ts';
import { CliFailure, EXIT } from './fail.ts';
import { failureOf, ok, pathId, request } from './http.ts';
import type { SvcTarget } from './target.ts';
import { TOOL_PREFIX } from './hub-show.ts';
import { readTable } from './batch-table.ts';

export interface BatchTarget {
  /** as the command line names it, for messages */
  name: string;
  /** what `/batch` and `/batch/<id>/stop` follow */
  path: string;
  fields: Fields;
  /** fields each row must send: a column must give every one */
  required: string[];
  /** what a row sends beside its id */
  line(subject: Record<string, unknown>): Record<string, unknown>;
  /** said on stderr before the rows go: which version an unpinned tool runs, and why */
  note?: string;
}

async function capabilityOf(target: SvcTarget, name: string): Promise<BatchTarget> {
  const meta = await ok<{ proxy_prefix: string }>(`${target.url}/meta`);
  const path = `${meta.proxy_prefix}/${name.replace(/^svc\./, '')}`;
  const doc = await ok<{ paths: Record<string, { post?: { requestBody: { content: Record<string, { schema: { properties: Fields } }> } } }> }>(
    `${target.url}/openapi.json`,
  );
  const op = doc.paths[path]?.post;
  if (!op) throw new CliFailure(`No routed capability '${name}' at ${target.url}; svc search lists them, e.g. people.email.find.`, EXIT.usage);
  // identity fields are needed one of several, not each: the server says which row lacks them
  return { name, path, fields: op.requestBody.content['application/json'].schema.properties, required: [], line: (subject) => subject };
}

interface ToolView {
  version: number;
  live_version: number | null;
  input_schema: { properties?: Fields; required?: string[] };
}

/** The newest version of `toolId` the lines of the output `out` name as what served them, or null. */
function versionRanIn(out: string, toolId: string): number | null {
  if (!existsSync(out)) return null;
  const servedBy = /^(svc\.)*served_by$/; // the column, prefixed where an input column has its name
  const version = new RegExp(`^${toolId}@([1-9][0-9]*)$`);
  let newest: number | null = null;
  for (const line of readTable(out).rows)
    for (const [column, value] of Object.entries(line)) {
      const n = servedBy.test(column) ? version.exec(String(value))?.[1] : undefined;
      if (n !== undefined) newest = Math.max(newest ?? 0, Number(n));
    }
  return newest;
}

async function toolOf(target: SvcTarget, name: string, out: string): Promise<BatchTarget> {
  let ref = name.slice(TOOL_PREFIX.length);
  if (!/^[a-z0-9-]{3,64}(@[1-9][0-9]{0,8})?$/.test(ref))
    throw new CliFailure(`'${name}' does not name a tool: write hub:<tool_id> or hub:<tool_id>@N (svc hub list lists them).`, EXIT.usage);
  const view = async (r: string) => {
    const a = await request(`${target.url}/hub/tools/${pathId(r)}`, { headers: { 'x-svc-token': target.token } });
    if (a.status === 404) throw new CliFailure(`No tool '${r}' you can run at ${target.url}; svc hub list lists them.`, EXIT.usage);
    if (a.status >= 300) throw failureOf(a);
    return a.data as ToolView;
  };
  let tool = await view(ref);
  let note: string | undefined;
  if (!ref.includes('@')) {
    const ran = versionRanIn(out, ref);
    // the newest live version, which its maker's view may not show
    const pin = ran ?? tool.live_version;
    if (pin !== null) {
      if (ran !== null)
        note = `svc: the rows ${out} holds ran ${name}@${ran}; the rest run it too${ran !== tool.live_version && tool.live_version !== null ? ` (${name}@${tool.live_version} is the newest live: name it to run the rest on it)` : ''}.\n`;
      ref = `${ref}@${pin}`;
      if (pin !== tool.version) tool = await view(ref);
    }
  }
  const schema = tool.input_schema;
  return {
    name,
    path: `/hub/tools/${pathId(ref)}`,
    fields: schema.properties ?? {},
    required: schema.required ?? [],
    line: (subject) => ({ input: subject }),
    note,
  };
}

/** `out`: the output file, whose lines tell an unpinned tool's resume which version the rows ran */
export const batchTargetOf = (target: SvcTarget, name: string, out: string): Promise<BatchTarget> =>
  name.startsWith(TOOL_PREFIX) ? toolOf(target, name, out) : capabilityOf(target, name);
