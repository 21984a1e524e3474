// The route options' defaults, apart from their parsing so the build can name them in docs and
// OpenAPI without loading the runtime's state and error modules.
export const DEFAULT_MAX_COST_MICRO = 1_000_000;
export const DEFAULT_TIMEOUT_MS = 60_000;

/** Every route header; the router refuses any other `X-Svc-Route-*`, and the build documents each. */
export const ROUTE_HEADERS = [
  'X-Svc-Route-Waterfall', 'X-Svc-Route-Max-Cost', 'X-Svc-Route-Prefer', 'X-Svc-Route-Exclude', 'X-Svc-Route-Strict-Filters',
  'X-Svc-Route-Verify', 'X-Svc-Route-Dry-Run', 'X-Svc-Route-Timeout-Ms',
] as const;
export type RouteHeader = (typeof ROUTE_HEADERS)[number];
