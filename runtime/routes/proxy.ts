// Calls that spend money: routed capabilities at {prefix}/<capability> and pass-through calls of one
// provider operation at {prefix}/<provider>/<path>.
import { getRouterParam, HTTPResponse, type H3 } from 'h3';
import type { AppContext } from '../context.ts';
import { fail } from '../errors.ts';
import { credentialsOf, requireTeam } from '../auth.ts';
import { readJson } from '../body.ts';
import { handleRouted } from '../router/handle.ts';
import { passThrough } from '../router/pass-through.ts';

export function proxyRoutes(app: H3, ctx: AppContext): void {
  const { config, state } = ctx;
  const prefix = config.proxyPrefix;

  app.post(`${prefix}/:capability`, async (event) => {
    const answer = await handleRouted(ctx, getRouterParam(event, 'capability')!, event.req.headers, credentialsOf(event), () => readJson(event, config.maxBodyBytes));
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
