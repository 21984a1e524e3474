// The state of the service behind one narrow interface: teams and credentials, balances and the
// ledger, own provider keys and observations. Routes and the router reach state through this module
// (admin and auth also use the credential helpers of secrets.ts and teams.ts); feedback and reviews
// keep their records over its atomics (runtime/feedback/).
import type { Config } from '../config/config.ts';
import type { Account, Atomics, LedgerEntry, ReportedFigures } from './atomics.ts';
import { openBackend } from './backend.ts';
import { masterSecret, Sealer } from './secrets.ts';
import { Teams, type Refusal, type Team } from './teams.ts';
import type { TokenOptions, TokenView } from './tokens.ts';
import { Observations, type Attempt } from './observations.ts';

export type { Team, Refusal } from './teams.ts';
export type { TokenOptions, TokenView } from './tokens.ts';
export type { LedgerEntry, LedgerKind, Account, Atomics, ReportedFigures } from './atomics.ts';
export type { Attempt, Outcome } from './observations.ts';
export { parseUsdToMicro, formatUsd, MICRO_PER_USD } from './money.ts';

export const LEDGER_PAGE = 50;

export interface Credential {
  /** an API token as sent in `x-svc-token` */
  token?: string | null;
  /** a dashboard session id as sent in the `svc_session` cookie */
  session?: string | null;
}

export interface State {
  /** `fs` (durable files), `memory`, or `redis` (shared by several instances) */
  readonly kind: 'fs' | 'memory' | 'redis';
  /** the atomic primitives (ids, counters, per-record updates) for other state modules */
  readonly atomics: Atomics;
  /** a new team with `creditMicro` on its balance and its first token (shown once); null when the slug is taken or empty */
  createTeam(name: string, creditMicro: number): Promise<{ team: Team; token: string } | null>;
  teamBySlug(slug: string): Promise<Team | null>;
  teamById(id: number): Promise<Team | null>;
  /** a new token for the team (the secret answered once, kept only as a SHA-256 digest) and what listings show of it */
  issueToken(teamId: number, options?: TokenOptions): Promise<{ token: string; view: TokenView }>;
  /** the team's tokens, oldest first, revoked and expired ones included; never a secret */
  tokens(teamId: number): Promise<TokenView[]>;
  /** revoke the team's token `id`; refused from the next call on, on every instance; null when the team has no such token */
  revokeToken(teamId: number, id: string): Promise<TokenView | null>;
  /** disable or enable a team (every token and session of a disabled team is refused); false for no such team */
  setTeamDisabled(teamId: number, disabled: boolean): Promise<boolean>;
  /** when the team was disabled; null while it is enabled */
  teamDisabledAt(teamId: number): Promise<string | null>;
  /** the team a token or session acts for (token first), or null for none, a bad, revoked or expired one, or a disabled team's */
  teamForCredential(credential: Credential): Promise<Team | null>;
  /** why teamForCredential answered null for a credential that names a team (revoked, expired, disabled); null for an unknown one */
  credentialRefusal(credential: Credential): Promise<Refusal | null>;
  /** teamForCredential's answer for a token when it is known without a lookup (seen lately, its team cached); else undefined */
  knownTeamForToken(token: string): Team | undefined;
  /** a dashboard session for the team: an opaque id stored server-side (never the token); it ends when `viaToken` is revoked or expires */
  openSession(teamId: number, viaToken?: string): Promise<string>;
  /** the id of the token a dashboard session was opened with; null when unknown */
  sessionTokenId(session: string): Promise<string | null>;
  /** end a dashboard session (sign out); false when there was none */
  closeSession(session: string): Promise<boolean>;
  /** every team, oldest first (the admin API's list) */
  teams(): Promise<Team[]>;
  /** the team's own key for a provider, decrypted; null when it has none */
  ownKey(teamId: number, provider: string): Promise<string | null>;
  /** providers the team holds its own key for, sorted */
  ownKeyProviders(teamId: number): Promise<readonly string[]>;
  /** the same as a set when known without a read (the team is cached); else undefined */
  knownOwnKeyProviders(teamId: number): ReadonlySet<string> | undefined;
  setOwnKey(teamId: number, provider: string, key: string): Promise<void>;
  /** true when a key was removed */
  removeOwnKey(teamId: number, provider: string): Promise<boolean>;
  /**
   * Debit `amountMicro` (≥ 0) from the team's balance and append a `charge` ledger entry with the
   * negative amount, atomically; with `unhold`, the team's hold of that id is dropped in the same
   * step. False (nothing written, the hold left standing) when the balance is too low. A zero
   * amount writes nothing, drops no hold, and answers true. The entry keeps the reported figures the ref carries.
   */
  charge(
    teamId: number,
    amountMicro: number,
    ref: { endpoint_id?: string; call_id?: string; tool_id?: string } & ReportedFigures,
    unhold?: string,
  ): Promise<boolean>;
  /** add `amountMicro` (> 0) to the balance with a `credit` ledger entry; answers the new balance, or null (nothing written) when it would pass Number.MAX_SAFE_INTEGER */
  credit(teamId: number, amountMicro: number): Promise<number | null>;
  /** add `amountMicro` (≥ 0) to the team's earnings with an `earning` entry (a hub tool's price paid to its maker); false (nothing written) when earnings would pass Number.MAX_SAFE_INTEGER */
  earn(teamId: number, amountMicro: number, ref: { tool_id?: string; call_id?: string }): Promise<boolean>;
  /** the team's balance in micro-USD */
  balance(teamId: number): Promise<number>;
  account(teamId: number): Promise<Account>;
  /** ledger entries newest first, LEDGER_PAGE at a time; `cursor` is the previous page's next_cursor */
  ledger(teamId: number, cursor: string | null): Promise<{ entries: LedgerEntry[]; next_cursor: string | null }>;
  /** record one attempt of a catalog endpoint (feeds its `observed` object) */
  recordAttempt(endpointId: string, attempt: Attempt): void;
  readonly observations: Observations;
  /** whether storage takes a write now (GET /readyz) */
  ready(): Promise<boolean>;
  /** write buffered state (observations, account checkpoints) and give up the data directory; call before exit */
  close(): Promise<void>;
}

function assertMicro(amount: number, min: number): void {
  if (!Number.isSafeInteger(amount) || amount < min) throw new RangeError(`amount must be an integer micro-USD ≥ ${min}, got ${amount}`);
}

const posted = (entry: LedgerEntry | null): boolean => entry !== null;

/** the atomics account that holds a team's balance, earnings and ledger */
export const teamAccount = (teamId: number) => `team-${teamId}`;
const account = teamAccount;

/** Open state on the backend SVC_STORAGE names (durable files under SVC_DATA_DIR by default). */
export async function createState(config: Pick<Config, 'storage' | 'dataDir' | 'secret'>): Promise<State> {
  const backend = await openBackend(config.storage, config.dataDir);
  const { atomics, storage } = backend;
  let sealer: Sealer | null = null;
  // the secret is read (or generated) on first use, not at start
  const teams = new Teams(storage, atomics, () => (sealer ??= new Sealer(masterSecret(config.secret, config.dataDir, backend.durable))), backend.exclusive);
  // the last release's tokens were not indexed by team: index them (idempotent) so they can be listed and revoked
  await teams.tokens.indexAll();
  const observations = new Observations(storage);
  await observations.load();

  return {
    kind: backend.kind,
    atomics,
    observations,
    async createTeam(name, creditMicro) {
      assertMicro(creditMicro, 0);
      const team = await teams.create(name);
      if (!team) return null;
      if (creditMicro > 0) await atomics.post(account(team.id), { kind: 'credit', amount_micro: creditMicro });
      return { team, token: (await teams.issueToken(team.id, { name: 'first token' })).token };
    },
    teamBySlug: (slug) => teams.bySlug(slug),
    teamById: (id) => teams.byId(id),
    issueToken: (teamId, options) => teams.issueToken(teamId, options),
    tokens: (teamId) => teams.tokens.list(teamId),
    revokeToken: (teamId, id) => teams.revokeToken(teamId, id),
    setTeamDisabled: (teamId, disabled) => teams.setDisabled(teamId, disabled),
    teamDisabledAt: (teamId) => teams.disabledAt(teamId),
    credentialRefusal: (credential) => teams.refusal(credential),
    // not async: an async function answering another's promise costs that promise's resolution two more turns
    teamForCredential: ({ token, session }) => (token ? teams.forToken(token) : session ? teams.forSession(session) : Promise.resolve(null)),
    knownTeamForToken: (token) => teams.knownForToken(token),
    openSession: (teamId, viaToken) => teams.openSession(teamId, viaToken),
    closeSession: (session) => teams.closeSession(session),
    sessionTokenId: (session) => teams.sessionTokenId(session),
    teams: () => teams.list(),
    ownKey: (teamId, provider) => teams.ownKey(teamId, provider),
    ownKeyProviders: (teamId) => teams.ownKeyProviders(teamId),
    knownOwnKeyProviders: (teamId) => teams.knownOwnKeyProviders(teamId),
    setOwnKey: (teamId, provider, key) => teams.setKey(teamId, provider, key),
    removeOwnKey: (teamId, provider) => teams.removeKey(teamId, provider),
    // not async (one step fewer on every paid attempt); a bad amount is still a rejection
    charge(teamId, amountMicro, ref, unhold) {
      try {
        assertMicro(amountMicro, 0);
      } catch (e) {
        return Promise.reject(e);
      }
      if (amountMicro === 0) return Promise.resolve(true);
      const draft = {
        kind: 'charge' as const,
        amount_micro: -amountMicro,
        endpoint_id: ref.endpoint_id,
        call_id: ref.call_id,
        tool_id: ref.tool_id,
        list_micro: ref.list_micro,
        reported_micro: ref.reported_micro,
        reported_value: ref.reported_value,
        reported_unit: ref.reported_unit,
      };
      return atomics.post(account(teamId), draft, unhold).then(posted);
    },
    async credit(teamId, amountMicro) {
      assertMicro(amountMicro, 1);
      if (!(await atomics.post(account(teamId), { kind: 'credit', amount_micro: amountMicro }))) return null;
      return (await atomics.account(account(teamId))).balance_micro;
    },
    async earn(teamId, amountMicro, ref) {
      assertMicro(amountMicro, 0);
      return amountMicro === 0 || (await atomics.post(account(teamId), { kind: 'earning', amount_micro: amountMicro, ...ref })) !== null;
    },
    balance: async (teamId) => (await atomics.account(account(teamId))).balance_micro,
    account: (teamId) => atomics.account(account(teamId)),
    async ledger(teamId, cursor) {
      const before = cursor && /^\d{1,15}$/.test(cursor) ? Number(cursor) : null;
      const page = await atomics.entries(account(teamId), before, LEDGER_PAGE);
      return { entries: page.entries, next_cursor: page.next === null ? null : String(page.next) };
    },
    recordAttempt: (endpointId, attempt) => observations.record(endpointId, attempt),
    async ready() {
      try {
        await storage.setItem('ready-probe', Date.now());
        return true;
      } catch {
        return false;
      }
    },
    async close() {
      await observations.flush();
      await atomics.flush();
      backend.release();
    },
  };
}
