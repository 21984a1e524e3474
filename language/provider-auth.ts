// Where a provider lives and which platform key it uses: both from the environment, by the names
// the provider's YAML gives (auth.env, SVC_BASE_<SERVICE>).
import type { AuthPlacementSrc, ProviderRuntime } from './types.ts';

export type Env = Record<string, string | undefined>;

export function baseUrl(provider: ProviderRuntime, env: Env): string {
  return (env[`SVC_BASE_${provider.service.toUpperCase()}`] || provider.base_url).replace(/\/+$/, '');
}

export function platformKey(provider: ProviderRuntime, env: Env): string | null {
  return env[provider.auth.env] || null;
}

/** Where a query parameter is set, as URLSearchParams.set sets it (a pass-through's URLSearchParams, a child request's query). */
export interface QueryParams {
  set(name: string, value: string): void;
}

/** Place a key where the provider expects it: header, query, bearer or basic. */
export function placeKey(provider: ProviderRuntime, key: string, query: QueryParams, headers: Record<string, string>): void {
  place(provider.auth, key, query, headers);
  for (const extra of provider.auth.also ?? []) place(extra, key, query, headers);
}

function place(p: AuthPlacementSrc, key: string, query: QueryParams, headers: Record<string, string>): void {
  const value = p.part === undefined ? key : (key.split(':')[p.part] ?? '');
  if (p.in === 'query') query.set(p.name!, value);
  else if (p.in === 'header') headers[p.name!.toLowerCase()] = `${p.prefix ?? ''}${value}`;
  else if (p.in === 'bearer') headers.authorization = `Bearer ${value}`;
  else headers.authorization = `Basic ${Buffer.from(value).toString('base64')}`;
}
