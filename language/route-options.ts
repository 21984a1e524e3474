// The route options: their defaults, their headers and what each header says, apart from their
// parsing so the build and OpenAPI can name them without loading the runtime.
import type { CapabilitySrc } from './types.ts';

export const DEFAULT_MAX_COST_MICRO = 1_000_000;
export const DEFAULT_TIMEOUT_MS = 60_000;
/**
 * The shortest deadline a caller may set. An attempt svc has sent runs to its end whatever the
 * deadline (the provider bills it, so the caller pays it), so a deadline shorter than any provider
 * answers in would only mislead: it is refused with a 422 instead.
 */
export const MIN_TIMEOUT_MS = 100;

/** Every route header; the router refuses any other `X-Svc-Route-*`, and the build documents each. */
export const ROUTE_HEADERS = [
  'X-Svc-Route-Waterfall',
  'X-Svc-Route-Max-Cost',
  'X-Svc-Route-Prefer',
  'X-Svc-Route-Exclude',
  'X-Svc-Route-Strict-Filters',
  'X-Svc-Route-Verify',
  'X-Svc-Route-Dry-Run',
  'X-Svc-Route-Timeout-Ms',
] as const;
export type RouteHeader = (typeof ROUTE_HEADERS)[number];

// every route header but Verify (below), by the router's own list: a header added there must be documented here
const HEADER_DOCS: Record<Exclude<RouteHeader, 'X-Svc-Route-Verify'>, string> = {
  'X-Svc-Route-Waterfall': '0 stops at the first miss; default on: a miss tries the next child.',
  'X-Svc-Route-Max-Cost': `Ceiling in USD for the whole call, verification included, rounded down to whole micro-USD; default ${(DEFAULT_MAX_COST_MICRO / 1_000_000).toFixed(2)}.`,
  'X-Svc-Route-Prefer': 'provider[,...]: try these providers first (after own-key children).',
  'X-Svc-Route-Exclude': 'provider[,...]: never call these providers.',
  'X-Svc-Route-Strict-Filters': '1: never call a child that cannot apply a sent filter; 422 and no charge when none can.',
  'X-Svc-Route-Timeout-Ms': `Deadline in milliseconds, at least ${MIN_TIMEOUT_MS} (default ${DEFAULT_TIMEOUT_MS}; may only lower it): no attempt starts after it; one already sent runs to its end and is charged as the provider bills it.`,
  'X-Svc-Route-Dry-Run': '1: answer the plan without calling any child or charging.',
};
const VERIFY_HEADER = 'true: verify a hit in the same call, within the ceiling, and report _svc.verification.';

/**
 * The route headers a capability takes: all of them, and Verify where it has a verifier. Without a
 * capability (a batch, whose capability is a path parameter) every header, Verify said to apply
 * only where there is verification.
 */
export function routeHeaders(cap?: CapabilitySrc): Record<string, string> {
  if (!cap) return { ...HEADER_DOCS, 'X-Svc-Route-Verify': `${VERIFY_HEADER} Only where the capability has verification.` };
  return cap.verify ? { ...HEADER_DOCS, 'X-Svc-Route-Verify': VERIFY_HEADER } : { ...HEADER_DOCS };
}
