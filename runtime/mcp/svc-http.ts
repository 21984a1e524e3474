// How the MCP tools reach svc: by its own HTTP API, so a tool call is exactly the call a script
// would make (same credential checks, same charges, same ledger rows). In the runtime that is the
// app itself (app.fetch, no socket); for `svc mcp` it is a running svc at SVC_URL.
export type SvcFetch = (path: string, init?: { method?: string; headers?: Record<string, string>; body?: string }) => Promise<Response>;

/** requests to `base` (no trailing slash) through `fetcher`, carrying the caller's token */
export function svcFetch(base: string, token: string, fetcher: (r: Request) => Promise<Response> | Response): SvcFetch {
  return async (path, init = {}) => fetcher(new Request(`${base}${path}`, { ...init, headers: { ...init.headers, 'x-svc-token': token } }));
}
