// API token records: issued (shown once), listed, named, given an expiry, revoked. A record lives at
// `token:<sha256 of the token>` (the only form the secret is kept in); each team's digests are kept
// in `token-index:<team id>` so a team's tokens are listed without a scan of every team's.
import type { Storage } from 'unstorage';
import type { Atomics } from './atomics.ts';
import { newToken, sha256 } from './secrets.ts';
import type { TokenView } from '../../language/team-answers.ts';

export type { TokenView };

/**
 * The stored record. The last release wrote `{team_id, digest, created_at}` and nothing else, so
 * every later field is optional: such a record reads as an active token without name or expiry.
 */
export interface TokenRecord {
  team_id: number;
  digest: string;
  created_at: string;
  name?: string;
  expires_at?: string;
  revoked_at?: string;
}

export interface TokenOptions {
  name?: string;
  /** an ISO date-time in the future */
  expiresAt?: string;
}

/**
 * A token's public id, made from its digest: old records need no id written into them, and 64 bits
 * of a SHA-256 of 190 random bits say nothing of the token.
 */
export const tokenId = (digest: string) => `tok_${digest.slice(0, 16)}`;

const indexKey = (teamId: number) => `token-index:${teamId}`;
const recordKey = (digest: string) => `token:${digest}`;

/** why a token record no longer acts, or null while it does */
export function lapse(rec: TokenRecord, now = Date.now()): 'revoked' | 'expired' | null {
  if (rec.revoked_at) return 'revoked';
  if (rec.expires_at && Date.parse(rec.expires_at) <= now) return 'expired';
  return null;
}

export function viewOf(rec: TokenRecord, now = Date.now()): TokenView {
  return {
    id: tokenId(rec.digest),
    name: rec.name ?? null,
    created_at: rec.created_at,
    expires_at: rec.expires_at ?? null,
    revoked_at: rec.revoked_at ?? null,
    status: lapse(rec, now) ?? 'active',
  };
}

export class TokenStore {
  constructor(
    private storage: Storage,
    private atomics: Atomics,
  ) {}

  /** a new token (the secret, answered once) and its view; only the digest is kept */
  async issue(teamId: number, options: TokenOptions = {}): Promise<{ token: string; view: TokenView }> {
    const token = newToken();
    const digest = sha256(token);
    const rec: TokenRecord = { team_id: teamId, digest, created_at: new Date().toISOString() };
    if (options.name) rec.name = options.name;
    if (options.expiresAt) rec.expires_at = options.expiresAt;
    // indexed first: a token that acts is always listed, so it can always be revoked
    await this.index(teamId, [digest]);
    await this.storage.setItem(recordKey(digest), rec as never);
    return { token, view: viewOf(rec) };
  }

  read(digest: string): Promise<TokenRecord | null> {
    return this.storage.getItem<TokenRecord>(recordKey(digest));
  }

  /** the team's tokens, revoked and expired ones included, oldest first */
  async list(teamId: number): Promise<TokenView[]> {
    const digests = (await this.atomics.get<{ digests: string[] }>(indexKey(teamId)))?.digests ?? [];
    const recs = await Promise.all(digests.map((d) => this.read(d)));
    const now = Date.now();
    return recs
      .filter((r): r is TokenRecord => r !== null && r.team_id === teamId)
      .sort((a, b) => a.created_at.localeCompare(b.created_at))
      .map((r) => viewOf(r, now));
  }

  /** revoke the team's token `id` (idempotent: a second revoke keeps the first time); null when the team has no such token */
  async revoke(teamId: number, id: string): Promise<TokenView | null> {
    const digests = (await this.atomics.get<{ digests: string[] }>(indexKey(teamId)))?.digests ?? [];
    const digest = digests.find((d) => tokenId(d) === id);
    if (!digest) return null;
    const rec = await this.atomics.update<TokenRecord>(recordKey(digest), (r) => {
      if (!r || r.team_id !== teamId || r.revoked_at) return undefined;
      return { ...r, revoked_at: new Date().toISOString() };
    });
    return rec && rec.team_id === teamId ? viewOf(rec) : null;
  }

  /**
   * Migration of the last release's data: its tokens were written without an index. Every token
   * record is put into its team's index (idempotent, so every start may run it; a token an older
   * instance issues during a rolling upgrade is indexed at the next start). Answers how many
   * records were read.
   */
  async indexAll(): Promise<number> {
    const keys = await this.storage.getKeys('token');
    const byTeam = new Map<number, string[]>();
    for (const key of keys) {
      const rec = await this.storage.getItem<TokenRecord>(key);
      if (!rec || typeof rec.team_id !== 'number' || typeof rec.digest !== 'string') continue;
      byTeam.set(rec.team_id, [...(byTeam.get(rec.team_id) ?? []), rec.digest]);
    }
    for (const [teamId, digests] of byTeam) await this.index(teamId, digests);
    return keys.length;
  }

  private async index(teamId: number, digests: string[]): Promise<void> {
    await this.atomics.update<{ digests: string[] }>(indexKey(teamId), (cur) => {
      const have = new Set(cur?.digests ?? []);
      const added = digests.filter((d) => !have.has(d));
      return added.length ? { digests: [...(cur?.digests ?? []), ...added] } : undefined;
    });
  }
}
