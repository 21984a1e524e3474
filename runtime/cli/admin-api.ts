// The admin HTTP API as the CLI calls it: SVC_URL (default http://localhost:8787) and SVC_ADMIN_TOKEN.
import { CliFailure } from './fail.ts';

export interface AdminTarget {
  url: string;
  token: string;
}

export function adminTarget(env: Record<string, string | undefined> = process.env): AdminTarget {
  const token = env.SVC_ADMIN_TOKEN;
  if (!token) throw new CliFailure('SVC_ADMIN_TOKEN is not set: export the admin token the server was started with.');
  return { url: (env.SVC_URL || 'http://localhost:8787').replace(/\/+$/, ''), token };
}

/** POST a JSON body to an /admin path (GET without one); the parsed answer, or a CliFailure with the server's sentence */
export async function adminCall<T>(target: AdminTarget, path: string, body?: unknown): Promise<T> {
  let res: Response;
  try {
    res = await fetch(`${target.url}${path}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), 'x-svc-admin': target.token },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(30_000),
    });
  } catch (e) {
    const c = (e as { cause?: { code?: string; message?: string } }).cause;
    const cause = c?.code ?? c?.message ?? (e as Error).message;
    throw new CliFailure(`Cannot reach ${target.url} (${cause}); is the server running, and is SVC_URL right?`);
  }
  const text = await res.text();
  let data: unknown;
  try { data = JSON.parse(text); } catch { data = null; }
  if (res.ok) return data as T;
  const detail = (data as { detail?: unknown } | null)?.detail;
  const said = typeof detail === 'string' ? detail : Array.isArray(detail) ? detail.map((d: { msg?: string }) => d.msg).join(' ') : `HTTP ${res.status}`;
  if (res.status === 401) throw new CliFailure(`The server refused SVC_ADMIN_TOKEN: ${said}`);
  throw new CliFailure(said);
}
