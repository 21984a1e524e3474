// What `svc batch` runs: a routed capability (`people.email.find`) or a tool of the hub
// (`hub:<tool_id>`, `hub:<tool_id>@N`). Either is read from the running svc before any row is sent:
// where its batch goes, the fields a row's subject takes, those every row needs, and the line a row
// sends (a capability's subject as it is; a tool's as a run's `input`).
import type { Fields } from './batch-columns.ts';
import { CliFailure, EXIT } from './fail.ts';
import { failureOf, ok, pathId, request } from './http.ts';
import type { SvcTarget } from './target.ts';
import { TOOL_PREFIX } from './hub-show.ts';

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

async function toolOf(target: SvcTarget, name: string): Promise<BatchTarget> {
  const ref = name.slice(TOOL_PREFIX.length);
  if (!/^[a-z0-9-]{3,64}(@[1-9][0-9]{0,8})?$/.test(ref))
    throw new CliFailure(`'${name}' does not name a tool: write hub:<tool_id> or hub:<tool_id>@N (svc hub list lists them).`, EXIT.usage);
  const view = async (r: string) => {
    const a = await request(`${target.url}/hub/tools/${pathId(r)}`, { headers: { 'x-svc-token': target.token } });
    if (a.status === 404) throw new CliFailure(`No tool '${r}' you can run at ${target.url}; svc hub list lists them.`, EXIT.usage);
    if (a.status >= 300) throw failureOf(a);
    return a.data as ToolView;
  };
  let tool = await view(ref);
  // unpinned, a batch runs the newest live version, which its maker's view may not show
  if (!ref.includes('@') && tool.live_version !== null && tool.live_version !== tool.version) tool = await view(`${ref}@${tool.live_version}`);
  const schema = tool.input_schema;
  return { name, path: `/hub/tools/${pathId(ref)}`, fields: schema.properties ?? {}, required: schema.required ?? [], line: (subject) => ({ input: subject }) };
}

export const batchTargetOf = (target: SvcTarget, name: string): Promise<BatchTarget> =>
  name.startsWith(TOOL_PREFIX) ? toolOf(target, name) : capabilityOf(target, name);
