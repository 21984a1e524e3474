// One routed call from the outside in, whichever door it came by: the h3 route and the Node fast
// path both hand over the headers, a way to read the session cookie and a way to read the body, and
// write out the one answer this gives, errors included (shaped by errors.ts).
import type { AppContext } from '../context/context.ts';
import { errorAnswer } from './errors.ts';
import { fail, type PlainAnswer } from '../util/fail.ts';
import { credentialsFrom, knownTeamFor, teamFor } from './auth.ts';
import { parseRouteOptions, type HeaderReader } from '../router/options.ts';
import { newCallId } from '../util/call-id.ts';
import type { Gone } from '../router/outcome.ts';

export interface RoutedRequest {
  headers: HeaderReader;
  sessionCookie: () => string | null;
  readBody: () => Promise<unknown>;
  /** true once the client has gone (its connection closed): the call then tries no further child */
  gone: Gone;
}

/** The answer to a routed call; never throws. Every answer, a refusal too, names the call's id. */
export async function answerRoutedCall(ctx: AppContext, capability: string, req: RoutedRequest): Promise<PlainAnswer> {
  const callId = newCallId();
  try {
    // the credential first: every call under the proxy prefix needs one, known capability or not
    const credentials = credentialsFrom(req.headers, req.sessionCookie);
    const team = knownTeamFor(ctx.state, credentials) ?? (await teamFor(ctx.state, credentials));
    if (!ctx.router.isCapability(capability)) fail(404, `No routed capability '${capability}'. GET /catalog/platforms lists them.`);
    const options = parseRouteOptions(req.headers);
    const body = await req.readBody();
    // nothing sent is an empty object (the answer names the identity sets); a JSON null is a body, refused as no object
    return await ctx.router.call(team, capability, body === undefined ? {} : body, options, callId, () => req.gone());
  } catch (e) {
    return errorAnswer(e, callId);
  }
}
