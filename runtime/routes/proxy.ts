// Calls that spend money: routed capabilities at {prefix}/<capability> and pass-through calls of one
// provider operation at {prefix}/<provider>/<path>.
import { getCookie, getRouterParam, HTTPResponse, type H3 } from 'h3';
import type { AppContext } from '../context.ts';
import { fail } from '../errors.ts';
import { requireTeam, SESSION_COOKIE } from '../auth.ts';
import { readJson } from '../body.ts';
import { answerRoutedCall } from '../router/routed-door.ts';
import { passThrough } from '../router/pass-through.ts';

export function proxyRoutes(app: H3, ctx: AppContext): void {
  const { config, state } = ctx;
  const prefix = config.proxyPrefix;

  app.post(`${prefix}/:capability`, async (event) => {
    const answer = await answerRoutedCall(ctx, getRouterParam(event, 'capability')!, {
      headers: event.req.headers, sessionCookie: () => getCookie(event, SESSION_COOKIE) ?? null, readBody: () => readJson(event, config.maxBodyBytes),
    });
    // HTTPResponse lets h3's Node adapter write the string straight out, with no web stream.
    return new HTTPResponse(answer.text, { status: answer.status, headers: answer.headers });
  });

  app.all(`${prefix}/:provider/**`, async (event) => {
    const provider = getRouterParam(event, 'provider')!;
    const team = await requireTeam(event, state);
    if (!Object.hasOwn(ctx.catalog.runtime.providers, provider)) {
      if (ctx.router.isCapability(provider)) fail(405, `${provider} is a routed capability: call it with POST and a JSON body.`, { allow: 'POST' });
      fail(404, `No provider '${provider}' in the catalog.`);
    }
    return passThrough(ctx, team, provider, event);
  });
}
