// The route options' defaults, apart from their parsing so the build can name them in docs and
// OpenAPI without loading the runtime's state and error modules.
export const DEFAULT_MAX_COST_MICRO = 1_000_000;
export const DEFAULT_TIMEOUT_MS = 60_000;
