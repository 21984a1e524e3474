// Teams, their tokens, dashboard sessions and own provider keys. Tokens and session ids are stored
// only as SHA-256 digests; provider keys only sealed (AES-256-GCM, bound to team and provider).
import type { Storage } from 'unstorage';
import type { Atomics } from './atomics.ts';
import { newOpaqueId, safeEqual, sha256, TOKEN_RE, type Sealer } from './secrets.ts';
import { lapse, tokenId, TokenStore, type TokenOptions, type TokenView } from './tokens.ts';
import { Lru } from '../util/lru.ts';

export interface Team {
  id: number;
  /** the public name of a team in URLs and `x-svc-org` */
  slug: string;
  name: string;
  created_at: string;
}

interface TeamRecord extends Team {
  /** provider → sealed key */
  keys: Record<string, string>;
  /** set while an administrator has disabled the team: its tokens and sessions are refused */
  disabled_at?: string;
}

interface SessionRecord {
  team_id: number;
  digest: string;
  created_at: string;
  expires_at?: string;
  /** the digest of the token the session was opened with (absent on sessions of the last release) */
  token_digest?: string;
}

/** why a credential that names a team does not act for it: a sentence for the caller and its status */
export interface Refusal {
  status: 401 | 403;
  detail: string;
}

/** a token seen lately: its team and when it stops acting (Infinity without an expiry) */
interface SeenToken {
  teamId: number;
  expiresMs: number;
}

export const SESSION_TTL_S = 30 * 86_400;

/** "Acme Data, Inc." → "acme-data-inc" */
export function slugify(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 48)
    .replace(/-+$/, '');
}

/** how long another instance's change of a team record (an own key) may go unseen on a shared backend */
export const SHARED_TEAM_TTL_MS = 1000;

/** how many tokens are remembered in the clear (each about 100 bytes) */
const SEEN_TOKENS = 10_000;

export class Teams {
  /**
   * team records, with what every call reads of them made once (the public team, the providers the
   * team keeps keys for); `until` is Infinity when this process is the only writer
   */
  private cache = new Map<number, Cached>();
  /**
   * token → team for the tokens seen lately, so a known token costs no SHA-256 and no read per call;
   * bounded (the least recent leaves first). Kept only when this process is the only writer, and
   * emptied by every revoke: on a shared backend every call reads its token and team, so a revoke or
   * a disable on one instance is refused on the next call to any other (no cache outlives it).
   */
  private seen = new Lru<SeenToken>(SEEN_TOKENS);
  readonly tokens: TokenStore;

  constructor(
    private storage: Storage,
    private atomics: Atomics,
    private sealer: () => Sealer,
    private exclusive: boolean,
  ) {
    this.tokens = new TokenStore(storage, atomics);
  }

  /** null when the name makes no slug or the slug is taken */
  async create(name: string): Promise<Team | null> {
    const slug = slugify(name);
    if (!slug) return null;
    const id = await this.atomics.nextId('team');
    const record: TeamRecord = { id, slug, name, created_at: new Date().toISOString(), keys: {} };
    await this.storage.setItem(`team:${id}`, record as never);
    if (!(await this.atomics.claim(`slug:${slug}`, { team_id: id }))) {
      await this.storage.removeItem(`team:${id}`);
      return null;
    }
    return publicTeam(record);
  }

  async byId(id: number): Promise<Team | null> {
    const hit = this.fresh(id);
    if (hit) return hit.team;
    const r = await this.record(id);
    return r && publicTeam(r);
  }

  async bySlug(slug: string): Promise<Team | null> {
    if (slugify(slug) !== slug) return null;
    const ref = await this.storage.getItem<{ team_id: number }>(`slug:${slug}`);
    return ref ? this.byId(ref.team_id) : null;
  }

  /** a new token for the team, answered once; only its digest is kept */
  async issueToken(teamId: number, options?: TokenOptions): Promise<{ token: string; view: TokenView }> {
    return this.tokens.issue(teamId, options);
  }

  /** revoke one of the team's tokens; null when it has none of that id */
  async revokeToken(teamId: number, id: string): Promise<TokenView | null> {
    const view = await this.tokens.revoke(teamId, id);
    if (view && this.exclusive) this.seen = new Lru<SeenToken>(SEEN_TOKENS); // revokes are rare: forget every token seen
    return view;
  }

  /** disable (or enable again) a team: false when there is no such team */
  async setDisabled(teamId: number, disabled: boolean): Promise<boolean> {
    let found = false;
    await this.change(teamId, (r) => {
      found = true;
      if (disabled) r.disabled_at ??= new Date().toISOString();
      else delete r.disabled_at;
    });
    return found;
  }

  /** when the team was disabled, or null while it is enabled */
  async disabledAt(teamId: number): Promise<string | null> {
    return (await this.record(teamId))?.disabled_at ?? null;
  }

  /**
   * The team of a token seen lately whose record is cached, at once; undefined when that needs a
   * lookup (forToken). Every routed call asks: answered without a promise, it spares the call the
   * turns of the microtask queue an await costs.
   */
  knownForToken(token: string): Team | undefined {
    const seen = this.seen.get(token);
    if (seen === undefined || seen.expiresMs <= Date.now()) return undefined;
    const cached = this.fresh(seen.teamId);
    return cached && !cached.record.disabled_at ? cached.team : undefined;
  }

  /** ownKeyProviders of a cached team, as a set, at once; undefined when that needs a read */
  knownOwnKeyProviders(teamId: number): ReadonlySet<string> | undefined {
    return this.fresh(teamId)?.providers;
  }

  forToken(token: string): Promise<Team | null> {
    // the common case, a known token of a cached team, answers without a digest or an async function
    const known = this.knownForToken(token);
    return known ? Promise.resolve(known) : this.forNewToken(token);
  }

  private async forNewToken(token: string): Promise<Team | null> {
    if (!TOKEN_RE.test(token)) return null;
    const digest = sha256(token);
    const rec = await this.tokens.read(digest);
    if (!rec || !safeEqual(rec.digest, digest) || lapse(rec)) return null;
    const team = await this.actingTeam(rec.team_id);
    if (team && this.exclusive) this.seen.set(token, { teamId: team.id, expiresMs: rec.expires_at ? Date.parse(rec.expires_at) : Infinity });
    return team;
  }

  /**
   * Why a token or session that resolves to no team was refused, when it names one: revoked,
   * expired, its team disabled, or (a session) its token since revoked. null for an unknown one.
   */
  async refusal(credential: { token?: string | null; session?: string | null }): Promise<Refusal | null> {
    const { token, session } = credential;
    if (token) {
      if (!TOKEN_RE.test(token)) return null;
      const rec = await this.tokens.read(sha256(token));
      if (!rec) return null;
      const why = lapse(rec);
      if (why === 'revoked') return { status: 401, detail: `This token was revoked at ${rec.revoked_at}; use another token of the team.` };
      if (why === 'expired')
        return { status: 401, detail: `This token expired at ${rec.expires_at}; use another token of the team, or create one that lasts longer.` };
      return this.disabledRefusal(rec.team_id);
    }
    if (!session || !/^[A-Za-z0-9_-]{43}$/.test(session)) return null;
    const rec = await this.storage.getItem<SessionRecord>(`session:${sha256(session)}`);
    if (!rec) return null;
    return (
      (await this.disabledRefusal(rec.team_id)) ?? {
        status: 401,
        detail: 'The session has expired, or the token it was opened with was revoked or has expired; sign in again.',
      }
    );
  }

  private async disabledRefusal(teamId: number): Promise<Refusal | null> {
    const rec = await this.record(teamId, true);
    return rec?.disabled_at
      ? {
          status: 403,
          detail: `Team '${rec.slug}' is disabled (since ${rec.disabled_at}): its tokens and sessions are refused until an administrator enables it.`,
        }
      : null;
  }

  /** the team, unless it is disabled; read afresh on a shared backend, where another instance may have disabled it */
  private async actingTeam(teamId: number): Promise<Team | null> {
    const rec = await this.record(teamId, !this.exclusive);
    return rec && !rec.disabled_at ? (this.fresh(teamId)?.team ?? publicTeam(rec)) : null;
  }

  /** a dashboard session id for the team; the id is opaque and stored only as a digest */
  async openSession(teamId: number, viaToken?: string): Promise<string> {
    const id = newOpaqueId();
    const digest = sha256(id);
    const now = Date.now();
    const record: SessionRecord = {
      team_id: teamId,
      digest,
      created_at: new Date(now).toISOString(),
      expires_at: new Date(now + SESSION_TTL_S * 1000).toISOString(),
    };
    // a session ends with its token: revoking a leaked token must not leave a session opened with it
    if (viaToken) record.token_digest = sha256(viaToken);
    await this.storage.setItem(`session:${digest}`, record as never);
    return id;
  }

  async forSession(id: string): Promise<Team | null> {
    if (!/^[A-Za-z0-9_-]{43}$/.test(id)) return null;
    const digest = sha256(id);
    const rec = await this.storage.getItem<SessionRecord>(`session:${digest}`);
    if (!rec || !safeEqual(rec.digest, digest)) return null;
    if (rec.expires_at && Date.parse(rec.expires_at) < Date.now()) return null;
    if (rec.token_digest) {
      const token = await this.tokens.read(rec.token_digest);
      if (!token || lapse(token)) return null;
    }
    return this.actingTeam(rec.team_id);
  }

  /** the id of the token a dashboard session was opened with; null when unknown (a session of the last release) */
  async sessionTokenId(id: string): Promise<string | null> {
    if (!/^[A-Za-z0-9_-]{43}$/.test(id)) return null;
    const digest = (await this.storage.getItem<SessionRecord>(`session:${sha256(id)}`))?.token_digest;
    return digest ? tokenId(digest) : null;
  }

  /** end a dashboard session; false when there was none */
  async closeSession(id: string): Promise<boolean> {
    if (!/^[A-Za-z0-9_-]{43}$/.test(id)) return false;
    const key = `session:${sha256(id)}`;
    if (!(await this.storage.hasItem(key))) return false;
    await this.storage.removeItem(key);
    return true;
  }

  /** every team, oldest first */
  async list(): Promise<Team[]> {
    const ids = (await this.storage.getKeys('team'))
      .flatMap((k) => /^team:(\d+)$/.exec(k)?.[1] ?? [])
      .map(Number)
      .sort((a, b) => a - b);
    return (await Promise.all(ids.map((id) => this.byId(id)))).filter((t): t is Team => t !== null);
  }

  async setKey(teamId: number, provider: string, key: string): Promise<void> {
    const sealed = this.sealer().seal(key, `${teamId}:${provider}`);
    await this.change(teamId, (r) => {
      r.keys = { ...r.keys, [provider]: sealed };
    });
  }

  /** true when a key was removed */
  async removeKey(teamId: number, provider: string): Promise<boolean> {
    let had = false;
    await this.change(teamId, (r) => {
      had = provider in r.keys;
      const { [provider]: _gone, ...rest } = r.keys;
      void _gone;
      r.keys = rest;
    });
    return had;
  }

  async ownKey(teamId: number, provider: string): Promise<string | null> {
    const sealed = (await this.record(teamId))?.keys[provider];
    return sealed ? this.sealer().open(sealed, `${teamId}:${provider}`) : null;
  }

  /** (Not async, and the cached list itself, not a copy: every routed call asks.) */
  ownKeyProviders(teamId: number): Promise<readonly string[]> {
    const known = this.knownOwnKeyProviders(teamId);
    if (known) return Promise.resolve([...known]);
    return this.record(teamId).then((r) => Object.keys(r?.keys ?? {}).sort());
  }

  private fresh(id: number): Cached | null {
    const hit = this.cache.get(id);
    return hit && hit.until > Date.now() ? hit : null;
  }

  /** the team's record, from the cache unless `afresh` */
  private async record(id: number, afresh = false): Promise<TeamRecord | null> {
    const hit = afresh ? null : this.fresh(id);
    if (hit) return hit.record;
    const r = await this.storage.getItem<TeamRecord>(`team:${id}`);
    if (r) this.keep(r);
    return r;
  }

  private keep(record: TeamRecord): void {
    const until = this.exclusive ? Infinity : Date.now() + SHARED_TEAM_TTL_MS;
    this.cache.set(record.id, { record, team: publicTeam(record), providers: new Set(Object.keys(record.keys).sort()), until });
  }

  private async change(id: number, edit: (r: TeamRecord) => void): Promise<void> {
    const next = await this.atomics.update<TeamRecord>(`team:${id}`, (r) => {
      if (!r) return undefined;
      const copy = { ...r, keys: { ...r.keys } };
      edit(copy);
      return copy;
    });
    if (next) this.keep(next);
  }
}

interface Cached {
  record: TeamRecord;
  team: Team;
  /** sorted, as ownKeyProviders answers them */
  providers: ReadonlySet<string>;
  until: number;
}

const publicTeam = ({ id, slug, name, created_at }: TeamRecord): Team => ({ id, slug, name, created_at });
