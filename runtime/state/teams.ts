// Teams, their tokens, dashboard sessions and own provider keys. Tokens and session ids are stored
// only as SHA-256 digests; provider keys only sealed (AES-256-GCM, bound to team and provider).
import type { Storage } from 'unstorage';
import type { Atomics } from './atomics.ts';
import { newOpaqueId, newToken, safeEqual, sha256, TOKEN_RE, type Sealer } from './secrets.ts';
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
}

interface CredentialRecord {
  team_id: number;
  digest: string;
  created_at: string;
  expires_at?: string;
}

export const SESSION_TTL_S = 30 * 86_400;

/** "Acme Data, Inc." → "acme-data-inc" */
export function slugify(name: string): string {
  return name.normalize('NFKD').replace(/[\u0300-\u036f]/g, '').toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 48).replace(/-+$/, '');
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
   * token → team id for the tokens seen lately, so a known token costs no SHA-256 and no read per
   * call; bounded (the least recent leaves first). It cannot go stale: no token is revoked or reissued.
   */
  private seen = new Lru<number>(SEEN_TOKENS);

  constructor(private storage: Storage, private atomics: Atomics, private sealer: () => Sealer, private exclusive: boolean) {}

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
  async issueToken(teamId: number): Promise<string> {
    const token = newToken();
    const digest = sha256(token);
    await this.storage.setItem(`token:${digest}`, { team_id: teamId, digest, created_at: new Date().toISOString() } as never);
    return token;
  }

  /**
   * The team of a token seen lately whose record is cached, at once; undefined when that needs a
   * lookup (forToken). Every routed call asks: answered without a promise, it spares the call the
   * turns of the microtask queue an await costs.
   */
  knownForToken(token: string): Team | undefined {
    const seen = this.seen.get(token);
    return seen === undefined ? undefined : this.fresh(seen)?.team;
  }

  /** ownKeyProviders of a cached team, as a set, at once; undefined when that needs a read */
  knownOwnKeyProviders(teamId: number): ReadonlySet<string> | undefined {
    return this.fresh(teamId)?.providers;
  }

  forToken(token: string): Promise<Team | null> {
    // the common case, a known token of a cached team, answers without a digest or an async function
    const known = this.knownForToken(token);
    if (known) return Promise.resolve(known);
    const seen = this.seen.get(token);
    return seen === undefined ? this.forNewToken(token) : this.byId(seen);
  }

  private async forNewToken(token: string): Promise<Team | null> {
    if (!TOKEN_RE.test(token)) return null;
    const team = await this.resolve('token', sha256(token));
    if (team) this.seen.set(token, team.id);
    return team;
  }

  /** a dashboard session id for the team; the id is opaque and stored only as a digest */
  async openSession(teamId: number): Promise<string> {
    const id = newOpaqueId();
    const digest = sha256(id);
    const now = Date.now();
    const record: CredentialRecord = { team_id: teamId, digest, created_at: new Date(now).toISOString(), expires_at: new Date(now + SESSION_TTL_S * 1000).toISOString() };
    await this.storage.setItem(`session:${digest}`, record as never);
    return id;
  }

  async forSession(id: string): Promise<Team | null> {
    if (!/^[A-Za-z0-9_-]{43}$/.test(id)) return null;
    return this.resolve('session', sha256(id));
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
    const ids = (await this.storage.getKeys('team')).flatMap((k) => /^team:(\d+)$/.exec(k)?.[1] ?? []).map(Number).sort((a, b) => a - b);
    return (await Promise.all(ids.map((id) => this.byId(id)))).filter((t): t is Team => t !== null);
  }

  async setKey(teamId: number, provider: string, key: string): Promise<void> {
    const sealed = this.sealer().seal(key, `${teamId}:${provider}`);
    await this.change(teamId, (r) => { r.keys = { ...r.keys, [provider]: sealed }; });
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

  private async resolve(kind: 'token' | 'session', digest: string): Promise<Team | null> {
    const rec = await this.storage.getItem<CredentialRecord>(`${kind}:${digest}`);
    if (!rec || !safeEqual(rec.digest, digest)) return null;
    if (rec.expires_at && Date.parse(rec.expires_at) < Date.now()) return null;
    return this.byId(rec.team_id);
  }

  private fresh(id: number): Cached | null {
    const hit = this.cache.get(id);
    return hit && hit.until > Date.now() ? hit : null;
  }

  private async record(id: number): Promise<TeamRecord | null> {
    const hit = this.fresh(id);
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
