// Key checks: the provider's key must sit exactly where its `auth` block says, every placement of it.
import type { AuthPlacementSrc, ProviderRuntime } from '../language/types.ts';

function expected(key: string, p: AuthPlacementSrc): string {
  return p.part === undefined ? key : (key.split(':')[p.part] ?? '');
}

function placed(p: AuthPlacementSrc, value: string, headers: Record<string, string>, query: URLSearchParams): boolean {
  switch (p.in) {
    case 'header': return headers[(p.name ?? 'authorization').toLowerCase()] === `${p.prefix ?? ''}${value}`;
    case 'query': return query.get(p.name ?? 'api_key') === value;
    case 'bearer': return headers.authorization === `Bearer ${value}`;
    case 'basic': return headers.authorization === `Basic ${Buffer.from(value).toString('base64')}`;
    default: return false;
  }
}

export function authorized(provider: ProviderRuntime, key: string | undefined, headers: Record<string, string>, query: URLSearchParams): boolean {
  if (!key) return false;
  return [provider.auth, ...(provider.auth.also ?? [])].every((p) => placed(p, expected(key, p), headers, query));
}

/** Query parameters that carry a key: left out of the subject and the steering text. */
export function authQueryNames(provider: ProviderRuntime): Set<string> {
  return new Set([provider.auth, ...(provider.auth.also ?? [])].filter((p) => p.in === 'query').map((p) => p.name ?? 'api_key'));
}

export function unauthorizedAnswer(provider: ProviderRuntime): { status: number; body: unknown } {
  return provider.errors?.unauthorized ?? { status: 401, body: { error: 'unauthorized' } };
}
