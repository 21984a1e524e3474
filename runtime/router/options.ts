// Route options travel as headers, never in the body. Parsed once per call; bad values are a 422
// naming the header.
import { invalid, type ValidationIssue } from '../util/fail.ts';
import { parseUsdCeiling } from '../state/money.ts';
import { parseWholeNumber } from '../util/decimal.ts';
import { DEFAULT_MAX_COST_MICRO, DEFAULT_TIMEOUT_MS, MIN_TIMEOUT_MS, ROUTE_HEADERS } from '../../language/route-options.ts';

/** What option parsing needs from a request's headers (a Headers object, or a view of Node's); names are asked in lower case. */
export interface HeaderReader {
  get(name: string): string | null;
  /** every header name sent, lower case */
  keys(): Iterable<string>;
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

const list = (v: string | null) =>
  v
    ? v
        .split(',')
        .map((s) => s.trim().toLowerCase())
        .filter(Boolean)
    : [];
const bad = (header: string, msg: string): never => invalid([{ loc: ['header', header], msg, type: 'value_error' }]);

// made once, not per call
const ON = ['1', 'true', 'on'];
const OFF = ['0', 'false', 'off'];

function flag(headers: HeaderReader, name: string): boolean | null {
  const v = headers.get(name);
  if (v === null) return null;
  const s = v.trim().toLowerCase();
  if (ON.includes(s)) return true;
  if (OFF.includes(s)) return false;
  const header = CANONICAL.get(name)!; // named as the docs and the other route-header errors name it
  return bad(header, `${header} must be one of ${[...ON, ...OFF].join(', ')}.`);
}

/** lower case → the name as documented */
const CANONICAL = new Map<string, string>(ROUTE_HEADERS.map((h) => [h.toLowerCase(), h]));

/**
 * A 422 naming every header of a family (`X-Svc-Route-*`, `X-Svc-Batch-*`) that is not one of its
 * `names`: a misspelt header would otherwise be ignored and the call run on defaults (a 1 USD
 * ceiling where the caller meant a micro-dollar, a batch without its budget). Answers whether any
 * header of the family was sent.
 */
export function unknownHeaderCheck(family: string, names: readonly string[]): (headers: HeaderReader) => boolean {
  const prefix = `x-svc-${family}-`;
  const known = new Set(names.map((h) => h.toLowerCase()));
  return (headers) => {
    let sent = false;
    let unknown: string[] | null = null; // made only when there is one
    for (const h of headers.keys()) {
      if (!h.startsWith(prefix)) continue;
      sent = true;
      if (!known.has(h)) (unknown ??= []).push(h);
    }
    if (!unknown) return sent;
    return invalid(
      unknown.map((h) => ({ loc: ['header', h], msg: `${h} is not a ${family} header; they are ${names.join(', ')}.`, type: 'value_error.unknown_header' })),
    );
  };
}

const refuseUnknown = unknownHeaderCheck('route', ROUTE_HEADERS);

/** a call that sends no route header (most do) shares these; nothing changes options once parsed */
const DEFAULTS: RouteOptions = Object.freeze({
  waterfall: true,
  maxCostMicro: DEFAULT_MAX_COST_MICRO,
  prefer: [],
  exclude: [],
  strictFilters: false,
  verify: false,
  dryRun: false,
  timeoutMs: DEFAULT_TIMEOUT_MS,
});
/** their merge key, made once */
const DEFAULTS_KEY = keyOf(DEFAULTS);

export function parseRouteOptions(headers: HeaderReader): RouteOptions {
  if (!refuseUnknown(headers)) return DEFAULTS;
  const maxCost = headers.get('x-svc-route-max-cost');
  let maxCostMicro = DEFAULT_MAX_COST_MICRO;
  if (maxCost !== null) {
    // Rounded down to whole micro-USD: a ceiling finer than that can only get lower.
    const micro = parseUsdCeiling(maxCost);
    if (micro === null) bad('X-Svc-Route-Max-Cost', 'X-Svc-Route-Max-Cost must be a non-negative USD amount such as 0.25, at most 9007199254 USD.');
    maxCostMicro = micro!;
  }
  const timeout = headers.get('x-svc-route-timeout-ms');
  let timeoutMs = DEFAULT_TIMEOUT_MS;
  if (timeout !== null) {
    const n = parseWholeNumber(timeout);
    if (n === null || n <= 0) bad('X-Svc-Route-Timeout-Ms', 'X-Svc-Route-Timeout-Ms must be a whole number of milliseconds in decimal digits, such as 5000.');
    else if (n < MIN_TIMEOUT_MS) {
      bad(
        'X-Svc-Route-Timeout-Ms',
        `X-Svc-Route-Timeout-Ms must be at least ${MIN_TIMEOUT_MS} ms: an attempt svc sends runs to its end whatever the deadline (the provider bills it, and so does svc), so a shorter one cannot be kept. Nothing was called or charged.`,
      );
    }
    timeoutMs = Math.min(n ?? DEFAULT_TIMEOUT_MS, DEFAULT_TIMEOUT_MS);
  }
  return {
    waterfall: flag(headers, 'x-svc-route-waterfall') ?? true,
    maxCostMicro,
    prefer: list(headers.get('x-svc-route-prefer')),
    exclude: list(headers.get('x-svc-route-exclude')),
    strictFilters: flag(headers, 'x-svc-route-strict-filters') ?? false,
    verify: flag(headers, 'x-svc-route-verify') ?? false,
    dryRun: flag(headers, 'x-svc-route-dry-run') ?? false,
    timeoutMs,
  };
}

/** What a capability's options may name: its children's providers, and Verify only where it has a verifier. */
export interface RouteScope {
  capability: string;
  providers: ReadonlySet<string>;
  /** the verifier's providers (empty without one): Exclude reaches the verification too */
  verifiers: ReadonlySet<string>;
  verifiable: boolean;
}

/** 422 for a Prefer/Exclude provider the call could never try, or Verify where nothing verifies. */
export function refuseOutOfScope(o: RouteOptions, scope: RouteScope): void {
  if (!o.prefer.length && !o.exclude.length && !o.verify) return; // nothing named: nothing to check, nothing made
  const issues: ValidationIssue[] = [];
  const reach = o.verify ? new Set([...scope.providers, ...scope.verifiers]) : scope.providers;
  for (const [header, named, known] of [
    ['X-Svc-Route-Prefer', o.prefer, scope.providers],
    ['X-Svc-Route-Exclude', o.exclude, reach],
  ] as const) {
    for (const p of named.filter((n) => !known.has(n))) {
      issues.push({
        loc: ['header', header],
        msg: `'${p}' is not a provider of ${scope.capability}; its providers are ${[...known].sort().join(', ')}.`,
        type: 'value_error.provider',
      });
    }
  }
  if (o.verify && !scope.verifiable)
    issues.push({
      loc: ['header', 'X-Svc-Route-Verify'],
      msg: `${scope.capability} has no verification; drop X-Svc-Route-Verify.`,
      type: 'value_error.verify',
    });
  if (issues.length) invalid(issues);
}

/** The options as a short text, equal exactly when every option is (what the call merger keys on). */
export function optionsKey(o: RouteOptions): string {
  return o === DEFAULTS ? DEFAULTS_KEY : keyOf(o);
}

function keyOf(o: RouteOptions): string {
  const flags = `${+o.waterfall}${+o.strictFilters}${+o.verify}${+o.dryRun}`;
  return `${flags}|${o.maxCostMicro}|${o.timeoutMs}|${o.prefer.join(',')}|${o.exclude.join(',')}`;
}
