// Key checks: the provider's key must sit exactly where its `auth` block says, every placement of it.
import type { AuthPlacementSrc, ProviderRuntime } from '../language/types.ts';

function expected(key: string, p: AuthPlacementSrc): string {
  return p.part === undefined ? key : (key.split(':')[p.part] ?? '');
}

function placed(p: AuthPlacementSrc, value: string, headers: Record<string, string>, query: URLSearchParams): boolean {
  switch (p.in) {
    case 'header':
      return headers[(p.name ?? 'authorization').toLowerCase()] === `${p.prefix ?? ''}${value}`;
    case 'query':
      return query.get(p.name ?? 'api_key') === value;
    case 'bearer':
      return headers.authorization === `Bearer ${value}`;
    case 'basic':
      return headers.authorization === `Basic ${Buffer.from(value).toString('base64')}`;
    default:
      return false;
  }
}

/** What sits where a placement puts a credential (its prefix taken off), or null. */
function placedValue(p: AuthPlacementSrc, headers: Record<string, string>, query: URLSearchParams): string | null {
  if (p.in === 'query') return query.get(p.name ?? 'api_key');
  const prefix = p.in === 'header' ? (p.prefix ?? '') : p.in === 'bearer' ? 'Bearer ' : 'Basic ';
  const v = headers[p.in === 'header' ? (p.name ?? 'authorization').toLowerCase() : 'authorization'];
  if (v === undefined || !v.startsWith(prefix)) return null;
  return p.in === 'basic' ? Buffer.from(v.slice(prefix.length), 'base64').toString('utf8') : v.slice(prefix.length);
}

/**
 * The key where the provider's auth puts it; for a provider that exchanges its key for tokens
 * (auth.exchange), a live token the sandbox issued for it (`liveToken`).
 */
export function authorized(
  provider: ProviderRuntime,
  key: string | undefined,
  headers: Record<string, string>,
  query: URLSearchParams,
  liveToken?: (token: string) => boolean,
): boolean {
  if (!key) return false;
  const placements = [provider.auth, ...(provider.auth.also ?? [])];
  if (provider.auth.exchange)
    return placements.every((p) => {
      const v = placedValue(p, headers, query);
      return v !== null && Boolean(liveToken?.(v));
    });
  return placements.every((p) => placed(p, expected(key, p), headers, query));
}

/** Query parameters that carry a key: left out of the subject and the steering text. */
export function authQueryNames(provider: ProviderRuntime): Set<string> {
  return new Set([provider.auth, ...(provider.auth.also ?? [])].filter((p) => p.in === 'query').map((p) => p.name ?? 'api_key'));
}

export function unauthorizedAnswer(provider: ProviderRuntime): { status: number; body: unknown } {
  return provider.errors?.unauthorized ?? { status: 401, body: { error: 'unauthorized' } };
}
