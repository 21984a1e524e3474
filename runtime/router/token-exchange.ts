// Access tokens svc obtains itself for providers whose `auth.exchange` says so (OAuth2 client
// credentials): the key is `client_id:client_secret`, exchanged at the provider's token endpoint; the
// token is kept until shortly before it expires and renewed then, by one exchange however many calls
// ask at once. Tokens are kept per provider, per credential (a hash of it) and per token endpoint, so a
// team's own pair only ever yields that team's token, the platform pair only svc's, and a token is
// only ever shown to the host that issued it (a base URL set by the environment is another issuer).
import { createHash } from 'node:crypto';
import type { ProviderRuntime } from '../../language/types.ts';
import type { Env } from '../../language/provider-auth.ts';
import { OutgoingRequest, providerUrl } from './build-request.ts';
import { send } from './http.ts';
import { redact } from './redact.ts';

/** An exchange that gave no token: its sentence names the provider and never the secret. */
export class TokenRefused extends Error {
  constructor(
    message: string,
    readonly status: number | undefined,
  ) {
    super(message);
  }
}

export interface Issued {
  token: string;
  /** the token's life in seconds, from the answer's expires_in or the YAML's */
  lifeS: number;
}

/** Ask the provider for a token; throws TokenRefused. */
export type Exchange = (provider: ProviderRuntime, key: string, env: Env, timeoutMs: number, maxBytes: number) => Promise<Issued>;

/** the life assumed when neither the answer nor the YAML says (OAuth2's common hour) */
const DEFAULT_LIFE_S = 3600;

/** How long before expiry a token is renewed: a tenth of its life, at most a minute. */
export const renewalMarginMs = (lifeMs: number): number => Math.min(60_000, lifeMs / 10);

interface Held {
  token: string;
  renewAt: number;
}

export class TokenCache {
  private held = new Map<string, Held>();
  private renewing = new Map<string, Promise<Held>>();

  constructor(
    private now: () => number = Date.now,
    private exchange: Exchange = exchangeCredentials,
  ) {}

  /** What to place for `key`: the key itself, or, where the provider exchanges it, a live token. */
  credential(provider: ProviderRuntime, key: string, env: Env, timeoutMs: number, maxBytes: number): Promise<string> {
    if (!provider.auth.exchange) return Promise.resolve(key);
    const id = cacheId(provider, key, env);
    const held = this.held.get(id);
    if (held && this.now() < held.renewAt) return Promise.resolve(held.token);
    let renewal = this.renewing.get(id);
    if (!renewal) {
      const asked = this.now();
      renewal = this.exchange(provider, key, env, timeoutMs, maxBytes)
        .then(({ token, lifeS }) => {
          const lifeMs = lifeS * 1000;
          const fresh = { token, renewAt: asked + lifeMs - renewalMarginMs(lifeMs) };
          this.held.set(id, fresh);
          return fresh;
        })
        .finally(() => this.renewing.delete(id));
      this.renewing.set(id, renewal);
    }
    return renewal.then((h) => h.token);
  }

  /** A token the provider refused before its time: the next call exchanges again. */
  forget(provider: ProviderRuntime, key: string, env: Env, token: string): void {
    const id = cacheId(provider, key, env);
    if (this.held.get(id)?.token === token) this.held.delete(id);
  }
}

const cacheId = (provider: ProviderRuntime, key: string, env: Env): string =>
  `${provider.service} ${providerUrl(provider, env, provider.auth.exchange?.path ?? '')?.href ?? ''} ${createHash('sha256').update(key).digest('base64url')}`;

/** The one exchange: POST grant_type=client_credentials with the id and secret, as `send` says. */
export const exchangeCredentials: Exchange = async (provider, key, env, timeoutMs, maxBytes) => {
  const x = provider.auth.exchange!;
  const who = provider.display_name;
  const colon = key.indexOf(':');
  if (colon <= 0 || colon === key.length - 1)
    throw new TokenRefused(
      `The ${who} credential must be 'client_id:client_secret' (one value, a colon between them); svc exchanges it for a token.`,
      undefined,
    );
  const [id, secret] = [key.slice(0, colon), key.slice(colon + 1)];
  const url = providerUrl(provider, env, x.path);
  if (!url) throw new TokenRefused(`${who}'s token endpoint ${x.path} resolves outside its host.`, undefined);
  const headers: Record<string, string> = { accept: 'application/json' };
  let body: string;
  if (x.send === 'json') {
    headers['content-type'] = 'application/json';
    body = JSON.stringify({ grant_type: x.grant, client_id: id, client_secret: secret });
  } else {
    headers['content-type'] = 'application/x-www-form-urlencoded';
    const form = new URLSearchParams({ grant_type: x.grant });
    if (x.send === 'basic') headers.authorization = `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;
    else {
      form.append('client_id', id);
      form.append('client_secret', secret);
    }
    body = form.toString();
  }
  // its own connections: the exchange carries the client secret
  const answer = await send(OutgoingRequest.to('POST', url, headers, body, `${id}:${secret}`), timeoutMs, maxBytes);
  if (answer.failure)
    throw new TokenRefused(`${who}'s token endpoint ${answer.failure === 'timeout' ? 'did not answer in time' : 'could not be reached'}.`, undefined);
  const got = (answer.body ?? {}) as { access_token?: unknown; expires_in?: unknown; error?: unknown; error_description?: unknown; message?: unknown };
  if (answer.status < 200 || answer.status >= 300) {
    const said = [got.error, got.error_description ?? got.message].filter((w) => typeof w === 'string' && w).join(': ');
    throw new TokenRefused(
      redact(`${who} refused the client id and secret at its token endpoint (HTTP ${answer.status}${said ? `: ${said}` : ''}).`, key),
      answer.status,
    );
  }
  if (typeof got.access_token !== 'string' || !got.access_token)
    throw new TokenRefused(`${who}'s token endpoint answered HTTP ${answer.status} without an access_token.`, answer.status);
  const life = Number(got.expires_in);
  return { token: got.access_token, lifeS: Number.isFinite(life) && life > 0 ? life : (x.expires_in ?? DEFAULT_LIFE_S) };
};

/** svc's tokens, one cache per process (the platform pair's and each team's own) */
export const tokens = new TokenCache();
