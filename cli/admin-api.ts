// The admin HTTP API as the CLI calls it: SVC_URL (default http://localhost:8787) and SVC_ADMIN_TOKEN.
import { CliFailure, EXIT } from './fail.ts';
import { baseUrl, credential, failureOf, request } from './http.ts';

export interface AdminTarget {
  url: string;
  token: string;
}

export function adminTarget(env: Record<string, string | undefined> = process.env): AdminTarget {
  const token = env.SVC_ADMIN_TOKEN;
  if (!token?.trim()) throw new CliFailure('SVC_ADMIN_TOKEN is not set: export the admin token the server was started with.', EXIT.usage);
  return { url: baseUrl(env), token: credential('SVC_ADMIN_TOKEN', token) };
}

/** POST a JSON body to an /admin path (GET without one, unless `method` says); the parsed answer, or a CliFailure with the server's sentence */
export async function adminCall<T>(target: AdminTarget, path: string, body?: unknown, method?: string): Promise<T> {
  const a = await request(`${target.url}${path}`, { body, method, headers: { 'x-svc-admin': target.token } });
  if (a.status >= 200 && a.status < 300) return a.data as T;
  const failure = failureOf(a);
  if (a.status === 401) throw new CliFailure(`The server refused SVC_ADMIN_TOKEN: ${failure.message}`, failure.exitCode, a.data);
  throw failure;
}
