// Who is calling: the team behind `x-svc-token` or the `svc_session` cookie, checked against
// `x-svc-org` when present. Routes that need a team call requireTeam first.
import { getCookie, type H3Event } from 'h3';
import { fail } from './errors.ts';
import type { State, Team } from './state/index.ts';

export const SESSION_COOKIE = 'svc_session';

/** The caller's team; 401 without a valid credential, 403 when `x-svc-org` names another team. */
export async function requireTeam(event: H3Event, state: State): Promise<Team> {
  const token = event.req.headers.get('x-svc-token');
  const session = token ? null : getCookie(event, SESSION_COOKIE);
  if (!token && !session) fail(401, 'Authentication required: send an API token in the x-svc-token header.');
  const team = await state.teamForCredential({ token, session });
  if (!team) fail(401, token ? 'The x-svc-token is not valid.' : 'The session has expired or is not valid; sign in again.');
  const org = event.req.headers.get('x-svc-org');
  if (org !== null && org !== team.slug) fail(403, `The credential does not belong to team '${org.slice(0, 64)}'.`);
  return team;
}
