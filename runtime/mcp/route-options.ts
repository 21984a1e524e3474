// The route options an agent sets as arguments of a paid tool, and the route headers they become:
// every routed tool offers those its capability takes, a hub tool the two a whole run takes
// (max_cost, dry_run). Refusals name the arguments, never the headers.
import type { RouteHeader } from '../../language/route-options.ts';

export interface RouteOption {
  header: RouteHeader;
  schema: { description: string; [k: string]: unknown };
}

export const ROUTE_OPTIONS: Record<string, RouteOption> = {
  max_cost: {
    header: 'X-Svc-Route-Max-Cost',
    schema: { type: 'number', minimum: 0, description: 'Most this call may cost in USD, every attempt included (default 1.00).' },
  },
  prefer: { header: 'X-Svc-Route-Prefer', schema: { type: 'array', items: { type: 'string' }, description: 'Providers to try first.' } },
  exclude: { header: 'X-Svc-Route-Exclude', schema: { type: 'array', items: { type: 'string' }, description: 'Providers never to try.' } },
  waterfall: { header: 'X-Svc-Route-Waterfall', schema: { type: 'boolean', description: 'Try the next provider after a miss (default true).' } },
  verify: { header: 'X-Svc-Route-Verify', schema: { type: 'boolean', description: "Verify a hit with the capability's verifier, where it has one." } },
  dry_run: {
    header: 'X-Svc-Route-Dry-Run',
    schema: { type: 'boolean', description: 'Answer the plan and its worst cost without calling or charging anything.' },
  },
};

/** a USD number as decimal text cut (never rounded up) to micro-USD: 1e-7 is "0.000000", not "1e-7" */
const usdText = (usd: number): string => usd.toFixed(7).slice(0, -1);

/** the JSON request headers carrying the route options among `args` */
export function routeHeaders(args: Record<string, unknown>): Record<string, string> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  for (const [arg, { header }] of Object.entries(ROUTE_OPTIONS)) {
    const v = args[arg];
    if (v === undefined || v === null) continue;
    headers[header] = Array.isArray(v) ? v.join(',') : typeof v === 'boolean' ? (v ? '1' : '0') : typeof v === 'number' ? usdText(v) : String(v);
  }
  return headers;
}

/** `args` split into the route options a tool offers and the rest */
export function splitArgs(args: Record<string, unknown>, offered: ReadonlySet<string>): { options: Record<string, unknown>; rest: Record<string, unknown> } {
  const entries = Object.entries(args);
  return {
    options: Object.fromEntries(entries.filter(([k]) => offered.has(k))),
    rest: Object.fromEntries(entries.filter(([k]) => !offered.has(k))),
  };
}

/** svc's sentences with each route header named as the argument it came from: `max_cost: 'max_cost' must be …` */
export const headersAsArguments = (text: string): string =>
  Object.entries(ROUTE_OPTIONS).reduce((t, [arg, { header }]) => t.replaceAll(`${header}: `, `${arg}: `).replaceAll(header, `'${arg}'`), text);
