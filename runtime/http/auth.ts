// Who is calling: the team behind `x-svc-token` or the `svc_session` cookie, checked against
// `x-svc-org` when present. Routes that need a team call requireTeam first.
import { getCookie, type H3Event } from 'h3';
import { fail, StatusError } from '../util/fail.ts';
import type { State, Team } from '../state/index.ts';

export const SESSION_COOKIE = 'svc_session';

/** what a request presents to say who it acts for */
export interface PresentedCredentials {
  token: string | null;
  session: string | null;
  org: string | null;
}

/** Where a 401 tells the caller the API token goes: the header, or wherever else the route reads it. */
export interface TokenPlace {
  /** completes "send an API token …" */
  send: string;
  invalid: string;
}

export const TOKEN_HEADER: TokenPlace = { send: 'in the x-svc-token header', invalid: 'The x-svc-token is not valid.' };

/** The team behind a token or session; 401 without a valid one, 403 when `org` names another team. */
export function teamFor(state: State, { token, session, org }: PresentedCredentials, place: TokenPlace = TOKEN_HEADER): Promise<Team> {
  if (!token && !session) return Promise.reject(new StatusError(401, `Authentication required: send an API token ${place.send}.`));
  // (Not async: an async function awaiting the lookup costs every routed call two more promises; a refusal is still a rejection.)
  return state.teamForCredential({ token, session }).then((team) => (team ? ofOrg(team, org) : refused(state, { token, session }, place)));
}

/** the refusal of a credential that acts for no team: why, when it names one (revoked, expired, a disabled team) */
async function refused(state: State, credential: { token: string | null; session: string | null }, place: TokenPlace): Promise<never> {
  const why = await state.credentialRefusal(credential);
  if (why) fail(why.status, why.detail);
  return fail(401, credential.token ? place.invalid : 'The session has expired or is not valid; sign in again.');
}

/**
 * teamFor's answer when the token's team is known at once (its 403 thrown), else undefined and the
 * caller awaits teamFor: a routed call's token is nearly always known, and an answer without a
 * promise spares it the turns an await costs.
 */
export function knownTeamFor(state: State, { token, org }: PresentedCredentials): Team | undefined {
  const team = token ? state.knownTeamForToken(token) : undefined;
  return team && ofOrg(team, org);
}

/**
 * the team, or 403 when `org` does not name it: its slug exactly (in any letter case), or its name
 * exactly as written. Nothing is made into a slug first: `-demo`, `demo-` or `Demo!` would become
 * `demo`, and a team named by a near miss is not the team the caller meant.
 */
function ofOrg(team: Team, org: string | null): Team {
  if (org !== null && org.toLowerCase() !== team.slug && org !== team.name) fail(403, `The credential does not belong to team '${org.slice(0, 64)}'.`);
  return team;
}

/** What a request presents: `x-svc-token`, else the `svc_session` cookie (read only when there is no token), and `x-svc-org`. */
export function credentialsFrom(headers: { get(name: string): string | null }, sessionCookie: () => string | null): PresentedCredentials {
  const token = headers.get('x-svc-token');
  return { token, session: token ? null : sessionCookie(), org: headers.get('x-svc-org') };
}

/** credentialsFrom an h3 event */
export function credentialsOf(event: H3Event): PresentedCredentials {
  return credentialsFrom(event.req.headers, () => getCookie(event, SESSION_COOKIE) ?? null);
}

/** The caller's team, from its credentials; 401 or 403 otherwise. */
export async function requireTeam(event: H3Event, state: State): Promise<Team> {
  return teamFor(state, credentialsOf(event));
}
