// POST /auth/session: trade an API token for a dashboard session cookie; DELETE signs out.
import { deleteCookie, getCookie, getRequestProtocol, setCookie } from 'h3';
import { route } from '../http/declared-route.ts';
import { fail } from '../util/fail.ts';
import * as schemas from '../http/request-schemas.ts';
import { SESSION_COOKIE } from '../http/auth.ts';
import { SESSION_TTL_S } from '../state/teams.ts';

export const authRoutes = [
  route<{ body: { token: string } }>({
    method: 'POST',
    path: '/auth/session',
    summary: 'Trade an API token for a dashboard session cookie (svc_session)',
    tags: ['teams'],
    auth: 'none',
    request: { body: schemas.sessionBody },
    responses: {
      200: { description: 'Session opened', schema: { type: 'object', properties: { team: { type: 'string' } } } },
      401: 'Bad token',
      422: 'Validation error',
    },
    handle: async ({ ctx: { state }, event, body: { token } }) => {
      const team = await state.teamForCredential({ token });
      if (!team) {
        const why = await state.credentialRefusal({ token });
        fail(why?.status ?? 401, why?.detail ?? 'The token is not valid.');
      }
      const id = await state.openSession(team.id, token);
      setCookie(event, SESSION_COOKIE, id, {
        httpOnly: true,
        sameSite: 'lax',
        path: '/',
        maxAge: SESSION_TTL_S,
        secure: getRequestProtocol(event, { xForwardedProto: true }) === 'https',
      });
      return { team: team.slug };
    },
  }),

  // Signing out ends the session server-side (the id is useless afterwards, even if kept) and
  // clears the cookie; without a session there is nothing to end, and the answer is the same.
  route({
    method: 'DELETE',
    path: '/auth/session',
    summary: 'Sign out: end the session server-side and clear its cookie',
    tags: ['teams'],
    auth: 'none',
    responses: { 204: 'Signed out (also without a session)' },
    handle: async ({ ctx: { state }, event }) => {
      const session = getCookie(event, SESSION_COOKIE);
      if (session) await state.closeSession(session);
      deleteCookie(event, SESSION_COOKIE, { httpOnly: true, sameSite: 'lax', path: '/' });
      event.res.status = 204;
      return null;
    },
  }),
];
