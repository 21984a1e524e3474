// Route options travel as headers, never in the body. Parsed once per call; bad values are a 422
// naming the header.
import { invalid } from '../errors.ts';
import { parseUsdToMicro } from '../state/index.ts';
import { DEFAULT_MAX_COST_MICRO, DEFAULT_TIMEOUT_MS } from './defaults.ts';

/** What option parsing needs from a request's headers (a Headers object, or a view of Node's); names are asked in lower case. */
export interface HeaderReader {
  get(name: string): string | null;
}

export interface RouteOptions {
  waterfall: boolean;
  maxCostMicro: number;
  prefer: string[];
  exclude: string[];
  strictFilters: boolean;
  verify: boolean;
  dryRun: boolean;
  timeoutMs: number;
}

const list = (v: string | null) => (v ? v.split(',').map((s) => s.trim().toLowerCase()).filter(Boolean) : []);
const bad = (header: string, msg: string): never => invalid([{ loc: ['header', header], msg, type: 'value_error' }]);

function flag(headers: HeaderReader, name: string, on: string[], off: string[]): boolean | null {
  const v = headers.get(name);
  if (v === null) return null;
  const s = v.trim().toLowerCase();
  if (on.includes(s)) return true;
  if (off.includes(s)) return false;
  return bad(name, `${name} must be one of ${[...on, ...off].join(', ')}.`);
}

export function parseRouteOptions(headers: HeaderReader): RouteOptions {
  const maxCost = headers.get('x-svc-route-max-cost');
  let maxCostMicro = DEFAULT_MAX_COST_MICRO;
  if (maxCost !== null) {
    const micro = parseUsdToMicro(maxCost);
    if (micro === null) bad('X-Svc-Route-Max-Cost', 'X-Svc-Route-Max-Cost must be a USD amount such as 0.25.');
    maxCostMicro = micro!;
  }
  const timeout = headers.get('x-svc-route-timeout-ms');
  let timeoutMs = DEFAULT_TIMEOUT_MS;
  if (timeout !== null) {
    const n = Number(timeout);
    if (!Number.isInteger(n) || n <= 0) bad('X-Svc-Route-Timeout-Ms', 'X-Svc-Route-Timeout-Ms must be a whole number of milliseconds.');
    timeoutMs = Math.min(n, DEFAULT_TIMEOUT_MS);
  }
  return {
    waterfall: flag(headers, 'x-svc-route-waterfall', ['1', 'true', 'on'], ['0', 'false', 'off']) ?? true,
    maxCostMicro,
    prefer: list(headers.get('x-svc-route-prefer')),
    exclude: list(headers.get('x-svc-route-exclude')),
    strictFilters: flag(headers, 'x-svc-route-strict-filters', ['1', 'true', 'on'], ['0', 'false', 'off']) ?? false,
    verify: flag(headers, 'x-svc-route-verify', ['1', 'true', 'on'], ['0', 'false', 'off']) ?? false,
    dryRun: flag(headers, 'x-svc-route-dry-run', ['1', 'true', 'on'], ['0', 'false', 'off']) ?? false,
    timeoutMs,
  };
}

/** The options as a short text, equal exactly when every option is (what the call merger keys on). */
export function optionsKey(o: RouteOptions): string {
  const flags = `${+o.waterfall}${+o.strictFilters}${+o.verify}${+o.dryRun}`;
  return `${flags}|${o.maxCostMicro}|${o.timeoutMs}|${o.prefer.join(',')}|${o.exclude.join(',')}`;
}
