// Where a team's commands (`svc mcp`, `svc batch`) reach svc: SVC_URL with SVC_TOKEN.
import { CliFailure } from './fail.ts';

export interface SvcTarget {
  url: string;
  token: string;
}

export function svcTarget(env: NodeJS.ProcessEnv = process.env): SvcTarget {
  const url = env.SVC_URL?.replace(/\/+$/, '');
  const token = env.SVC_TOKEN;
  if (!url || !/^https?:\/\//.test(url)) throw new CliFailure('Set SVC_URL to the running svc, e.g. http://127.0.0.1:8787.');
  if (!token) throw new CliFailure("Set SVC_TOKEN to your team's API token (svc_…).");
  return { url, token };
}
