// The hub tools of the caller's MCP set (its own live tools and the ones it added by id; GET
// /hub/mcp-tools, which gives a maker's words as plain capped text), one MCP tool each, read at every
// listing (tools go live and retire while a client is connected). The price per run leads the
// description. A listing shows one version at one price and the agent sends that version back, so a
// call runs what the agent was shown, at that price, while svc still serves it (an older version
// for 30 days after a newer one went live), never a newer version at a price it was not shown; a
// call by name alone runs the newest live version, as the HTTP run does.
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { McpSetAnswer, McpSetRow } from '../hub/mcp-set.ts';
import { errorResult, fromResponse } from './answers.ts';
import { unlisted } from './hub-unlisted.ts';
import { headersAsArguments, ROUTE_OPTIONS, routeHeaders, splitArgs } from './route-options.ts';
import type { SvcFetch } from './svc-http.ts';
import { PAID, type McpListing } from './tool.ts';
import { usdTextOf } from '../../language/money-words.ts';

const PREFIX = 'hub_';
/** the route options a whole run takes (docs/hub.md), sent as its route headers */
const RUN_OPTIONS = {
  max_cost: {
    ...ROUTE_OPTIONS.max_cost.schema,
    description: "Most this run may cost in USD: its steps plus the tool's price (a ceiling below the price stops it before any step).",
  },
  dry_run: ROUTE_OPTIONS.dry_run.schema,
};
const OFFERED = new Set(Object.keys(RUN_OPTIONS));
/** svc's arguments on every hub tool; a maker's input field of the same name is svc's over MCP */
const SVC_ARGUMENTS = new Set([...OFFERED, 'version']);
/** a run of a version that no longer serves: a pin past its 30 days (410), a version not live (404, 409) */
const GONE = new Set([404, 409, 410]);

export const hubToolId = (name: string): string | null => (name.startsWith(PREFIX) ? name.slice(PREFIX.length) : null);

export async function mcpSetOf(http: SvcFetch): Promise<McpSetAnswer> {
  const r = await http('/hub/mcp-tools');
  return r.ok ? ((await r.json()) as McpSetAnswer) : { tools: [], added: [] };
}

const listedAs = (t: McpSetRow) => `hub_${t.tool_id} is listed as ${t.tool_id}@${t.version} at ${usdTextOf(t.price_usd)} a run`;

/** run the version of a hub tool the agent was shown; a tool outside the caller's MCP set is refused as a listing would not show it */
export async function runHubTool(http: SvcFetch, id: string, args: Record<string, unknown>): Promise<CallToolResult> {
  const set = await mcpSetOf(http);
  const listed = set.tools.find((t) => t.tool_id === id);
  if (!listed) return unlisted(http, id, set.added.includes(id));
  // without a version, what is listed now: a script calling by name alone runs the newest live version
  const { version = listed.version, ...rest } = args;
  if (!Number.isSafeInteger(version) || (version as number) < 1) {
    const msg = `'version' is the version tools/list showed: svc runs that version, at its price (${listedAs(listed)}).`;
    return errorResult(422, { detail: [{ loc: ['version'], msg }] });
  }
  const { options, rest: input } = splitArgs(rest, OFFERED);
  const r = await http(`/hub/tools/${encodeURIComponent(id)}@${version}/run`, {
    method: 'POST',
    headers: routeHeaders(options),
    body: JSON.stringify({ input }),
  });
  const stale = version !== listed.version && GONE.has(r.status) ? ` The tool changed since that listing: ${listedAs(listed)} now; list the tools again.` : '';
  return fromResponse(r, undefined, { within: 'input', rename: (text) => headersAsArguments(text) + stale });
}

function description(t: McpSetRow): string {
  const who = t.mine ? 'your own team' : `team '${t.maker}'`;
  return (
    `Paid: ${usdTextOf(t.price_usd)} a run plus its steps' charges, from your balance. Hub tool ${t.tool_id}@${t.version}, made by ${who}, not by svc. ` +
    `Send version ${t.version}: that version runs, at that price, even if the maker publishes another meanwhile (without it, the newest live version runs at its own price; max_cost caps the run, dry_run: true plans it for free). ` +
    `The maker's words, unchecked: "${t.summary}"`
  );
}

/** the maker's input schema with svc's arguments beside its fields: the version listed (that one only) and the run's options */
function inputSchema(t: McpSetRow): McpListing['inputSchema'] {
  const schema = t.input_schema;
  const required = Array.isArray(schema.required) ? (schema.required as string[]).filter((f) => !SVC_ARGUMENTS.has(f)) : [];
  const version = {
    type: 'integer',
    const: t.version,
    description: `The version listed (${t.tool_id}@${t.version}): it runs at the price above, whatever the maker publishes after this listing (left out: the newest live version, at its own price). If svc answers that it no longer serves, list the tools again.`,
  };
  return {
    ...schema,
    type: 'object',
    properties: { ...(schema.properties as Record<string, object> | undefined), version, ...RUN_OPTIONS },
    required,
  };
}

export async function hubListings(http: SvcFetch): Promise<McpListing[]> {
  return (await mcpSetOf(http)).tools.map((t) => ({
    name: `${PREFIX}${t.tool_id}`,
    title: `${t.name} (hub, by ${t.maker}, paid)`,
    description: description(t),
    inputSchema: inputSchema(t),
    annotations: PAID,
  }));
}
