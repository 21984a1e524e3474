// Where a team's streaming commands (`svc mcp`, `svc batch`) reach svc: the same SVC_URL and
// SVC_TOKEN rules, defaults and usage errors as every other team command (http.ts).
import { baseUrl, teamToken, type Env } from './http.ts';

export interface SvcTarget {
  url: string;
  token: string;
}

export function svcTarget(env: Env = process.env): SvcTarget {
  return { url: baseUrl(env), token: teamToken(env) };
}
