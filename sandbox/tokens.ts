// A provider's token endpoint, for providers whose auth says `exchange` (OAuth2 client credentials):
// the sandbox's key is `client_id:client_secret`; a right pair, sent as `exchange.send` says, gets a
// fresh access token that lasts `lifeS`, and only live tokens are then accepted on that provider's calls.
import type { ProviderRuntime } from '../language/types.ts';
import { hash32 } from './hash.ts';
import type { SandboxRequest } from './types.ts';

/** the sandbox's token life when the options say none: Snov's and most providers' hour */
export const DEFAULT_TOKEN_LIFE_S = 3600;

export type TokenCounts = Record<string, { exchanges: number; refused: number }>;

export class TokenDesk {
  private live = new Map<string, { service: string; until: number }>();
  private counts: TokenCounts = {};
  private issued = 0;

  constructor(
    private lifeS = DEFAULT_TOKEN_LIFE_S,
    private now: () => number = Date.now,
  ) {}

  /** whether `req` is a call of the provider's token endpoint */
  isExchange(provider: ProviderRuntime, req: SandboxRequest): boolean {
    const x = provider.auth.exchange;
    return Boolean(x) && req.method.toUpperCase() === 'POST' && req.path.replace(/\/+$/, '') === x!.path.replace(/\/+$/, '');
  }

  /** the token endpoint's answer: a token for the right pair, OAuth2's invalid_client otherwise */
  exchange(provider: ProviderRuntime, key: string, req: SandboxRequest): { status: number; body: unknown } {
    const row = (this.counts[provider.service] ??= { exchanges: 0, refused: 0 });
    const sent = sentPair(provider, req);
    if (!sent || `${sent.id}:${sent.secret}` !== key || sent.grant !== 'client_credentials') {
      row.refused += 1;
      return { status: 401, body: { error: 'invalid_client', error_description: 'Client authentication failed' } };
    }
    row.exchanges += 1;
    this.issued += 1;
    const token = `tok_${provider.service}_${this.issued}_${hash32(`${key} ${this.issued}`).toString(36)}`;
    this.live.set(token, { service: provider.service, until: this.now() + this.lifeS * 1000 });
    return { status: 200, body: { access_token: token, token_type: 'Bearer', expires_in: this.lifeS } };
  }

  /** whether `token` was issued for `service` and has not expired */
  valid(service: string, token: string): boolean {
    const t = this.live.get(token);
    return t !== undefined && t.service === service && this.now() < t.until;
  }

  snapshot(): TokenCounts {
    return structuredClone(this.counts);
  }

  /** counts only: tokens already issued stay live, as a real provider's do (svc may hold one) */
  clearCounts(): void {
    this.counts = {};
  }
}

/** the grant, id and secret as the provider's YAML says they travel: form fields, JSON, or Basic */
function sentPair(provider: ProviderRuntime, req: SandboxRequest): { grant: string; id: string; secret: string } | null {
  const how = provider.auth.exchange?.send ?? 'form';
  let fields: Record<string, unknown>;
  try {
    fields = how === 'json' ? (JSON.parse(req.bodyText) as Record<string, unknown>) : Object.fromEntries(new URLSearchParams(req.bodyText));
  } catch {
    return null;
  }
  const grant = String(fields.grant_type ?? '');
  if (how !== 'basic') return { grant, id: String(fields.client_id ?? ''), secret: String(fields.client_secret ?? '') };
  const m = /^Basic (.+)$/.exec(req.headers.authorization ?? '');
  const pair = m ? Buffer.from(m[1], 'base64').toString('utf8') : '';
  const colon = pair.indexOf(':');
  return colon > 0 ? { grant, id: pair.slice(0, colon), secret: pair.slice(colon + 1) } : null;
}
