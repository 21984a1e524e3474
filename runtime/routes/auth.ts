// POST /auth/session: trade an API token for a dashboard session cookie; DELETE signs out.
import { deleteCookie, getCookie, getRequestProtocol, setCookie, type H3 } from 'h3';
import type { AppContext } from '../context.ts';
import { fail } from '../errors.ts';
import { bodyValidator } from '../validate.ts';
import * as schemas from '../request-schemas.ts';
import { readJson } from '../body.ts';
import { SESSION_COOKIE } from '../auth.ts';
import { SESSION_TTL_S } from '../state/teams.ts';

const sessionBody = bodyValidator<{ token: string }>(schemas.sessionBody);

export function authRoutes(app: H3, { config, state }: AppContext): void {
  app.post('/auth/session', async (event) => {
    const { token } = sessionBody(await readJson(event, config.maxBodyBytes));
    const team = await state.teamForCredential({ token });
    if (!team) fail(401, 'The token is not valid.');
    const id = await state.openSession(team.id);
    setCookie(event, SESSION_COOKIE, id, {
      httpOnly: true, sameSite: 'lax', path: '/', maxAge: SESSION_TTL_S,
      secure: getRequestProtocol(event, { xForwardedProto: true }) === 'https',
    });
    return { team: team.slug };
  });

  // Signing out ends the session server-side (the id is useless afterwards, even if kept) and
  // clears the cookie; without a session there is nothing to end, and the answer is the same.
  app.delete('/auth/session', async (event) => {
    const session = getCookie(event, SESSION_COOKIE);
    if (session) await state.closeSession(session);
    deleteCookie(event, SESSION_COOKIE, { httpOnly: true, sameSite: 'lax', path: '/' });
    event.res.status = 204;
    return null;
  });
}
