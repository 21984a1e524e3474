// `svc call CAPABILITY field=value … [route flags]`: a routed call. Each flag is one X-Svc-Route-*
// header (docs/routing.md), named exactly, since the router refuses any other.
import { defineCommand } from 'citty';
import { asTeam, baseUrl, failureOf, request, teamToken, type Answer } from './http.ts';
import { CliFailure, EXIT } from './fail.ts';
import { kindOf, parseFields, refuseUnknownFields, type FieldKind } from './fields.ts';
import { tellAnswer } from './answer.ts';
import type { RouteHeader } from '../language/route-options.ts';
import { json, note, out, printJson, table, usd } from './print.ts';

const ATTEMPT_MARGIN_MS = 15_000;
const DEFAULT_DEADLINE_MS = 60_000;

interface RouteFlags {
  'max-cost'?: string;
  prefer?: string;
  exclude?: string;
  waterfall: boolean;
  strict: boolean;
  verify: boolean;
  'dry-run': boolean;
  timeout?: string;
}

/** each route flag and the header it stands for (the router's own list names them all) */
const FLAG_HEADERS = {
  'max-cost': 'X-Svc-Route-Max-Cost',
  prefer: 'X-Svc-Route-Prefer',
  exclude: 'X-Svc-Route-Exclude',
  waterfall: 'X-Svc-Route-Waterfall',
  strict: 'X-Svc-Route-Strict-Filters',
  verify: 'X-Svc-Route-Verify',
  'dry-run': 'X-Svc-Route-Dry-Run',
  timeout: 'X-Svc-Route-Timeout-Ms',
} as const satisfies Record<string, RouteHeader>;

/** the flags as the router's headers; a flag left out sends nothing, so the server's default holds */
function routeHeaders(f: RouteFlags): Record<string, string> {
  const h: Record<string, string> = {};
  if (f['max-cost'] !== undefined) h[FLAG_HEADERS['max-cost']] = f['max-cost'];
  if (f.prefer) h[FLAG_HEADERS.prefer] = f.prefer;
  if (f.exclude) h[FLAG_HEADERS.exclude] = f.exclude;
  if (!f.waterfall) h[FLAG_HEADERS.waterfall] = '0';
  if (f.strict) h[FLAG_HEADERS.strict] = '1';
  if (f.verify) h[FLAG_HEADERS.verify] = '1';
  if (f['dry-run']) h[FLAG_HEADERS['dry-run']] = '1';
  if (f.timeout !== undefined) h[FLAG_HEADERS.timeout] = f.timeout;
  return h;
}

/** svc's refusal in the command's own terms: a route header is named as the flag that sent it */
function inFlags(a: Answer): Answer {
  const data = a.data as { detail?: unknown } | null;
  if (a.status < 400 || !data) return a;
  const said = (text: string) => Object.entries(FLAG_HEADERS).reduce((t, [flag, header]) => t.replaceAll(header, `--${flag}`), text);
  const detail = Array.isArray(data.detail)
    ? data.detail.map((d: { loc?: unknown[]; msg?: string }) => ({ ...d, loc: d.loc?.map((l) => said(String(l))), msg: said(d.msg ?? '') }))
    : typeof data.detail === 'string'
      ? said(data.detail)
      : data.detail;
  return { ...a, data: { ...data, detail } };
}

interface Entry {
  endpoint: { input: { body?: Record<string, { type?: string }> } };
}
interface DryRun {
  plan: Array<{ endpoint_id: string; key: string; worst_cost_micro: number }>;
  excluded: Array<{ endpoint_id: string; reason: string }>;
  worst_cost_micro: number;
  verification?: { capability: string; worst_cost_micro: number };
}

function tellPlan(p: DryRun): void {
  out(
    table(
      ['PLAN', 'KEY', 'WORST COST'],
      p.plan.map((r) => [r.endpoint_id, r.key, usd(r.worst_cost_micro)]),
    ),
  );
  if (p.excluded.length)
    out(
      `\n${table(
        ['EXCLUDED', 'WHY'],
        p.excluded.map((r) => [r.endpoint_id, r.reason]),
      )}`,
    );
  if (p.verification) note(`verification by ${p.verification.capability}, worst ${usd(p.verification.worst_cost_micro)}`);
  note(`worst cost of the call: ${usd(p.worst_cost_micro)}; nothing was called or charged`);
}

export const call = defineCommand({
  meta: { name: 'call' },
  args: {
    capability: { type: 'positional', required: true, description: 'routed capability, e.g. people.email.verify (svc. prefix optional)' },
    fields: { type: 'positional', required: false, description: 'field=value … (field:=JSON for any JSON value)' },
    'max-cost': { type: 'string', description: 'USD ceiling for the whole call (X-Svc-Route-Max-Cost; default 1.00)' },
    prefer: { type: 'string', description: 'providers to try first, comma list (X-Svc-Route-Prefer)' },
    exclude: { type: 'string', description: 'providers never to try, comma list (X-Svc-Route-Exclude)' },
    waterfall: {
      type: 'boolean',
      default: true,
      description: 'go on to the next provider after a miss (X-Svc-Route-Waterfall)',
      negativeDescription: 'stop at the first miss (X-Svc-Route-Waterfall: 0)',
    },
    strict: { type: 'boolean', default: false, description: 'only providers that apply every filter sent (X-Svc-Route-Strict-Filters)' },
    verify: { type: 'boolean', default: false, description: 'check a found email or phone with its verifier (X-Svc-Route-Verify)' },
    'dry-run': { type: 'boolean', default: false, description: 'show the plan and worst cost; call and charge nothing (X-Svc-Route-Dry-Run)' },
    timeout: { type: 'string', description: 'deadline of the whole call in milliseconds (X-Svc-Route-Timeout-Ms; default 60000)' },
    json,
  },
  async run({ args }) {
    const capability = args.capability.replace(/^svc\./, '');
    const headers = { 'x-svc-token': teamToken(), ...routeHeaders(args) };
    // the entry gives each field's type (so `limit=5` is a number); /meta the proxy's path on SVC_URL
    const [found, meta] = await Promise.all([
      request(`${baseUrl()}/catalog/endpoints/svc.${encodeURIComponent(capability)}`),
      asTeam<{ proxy_prefix: string }>('/meta'),
    ]);
    if (found.status === 404)
      throw new CliFailure(
        `'${capability}' is not a routed capability; svc search ${capability.split('.').join(' ')} lists operations, and routed ones have ids svc.<capability>.`,
        EXIT.refused,
      );
    if (found.status !== 200) throw failureOf(found);
    const entry = found.data as Entry;
    const kinds: Record<string, FieldKind> = Object.fromEntries(Object.entries(entry.endpoint.input.body ?? {}).map(([k, p]) => [k, kindOf(p.type)]));
    const body = parseFields(args._.slice(1), kinds);
    refuseUnknownFields(body, Object.keys(kinds), capability);
    const deadline = Number(args.timeout) > 0 ? Number(args.timeout) : DEFAULT_DEADLINE_MS;
    const url = `${baseUrl()}${meta.proxy_prefix}/${capability}`;
    const a = await request(url, { body, headers, timeoutMs: deadline + ATTEMPT_MARGIN_MS, label: `calling ${capability}` });
    if (args['dry-run'] && a.status === 200) return args.json ? printJson(a.data) : tellPlan(a.data as DryRun);
    tellAnswer(inFlags(a), args.json, (svc) => !svc.served_by);
  },
});
