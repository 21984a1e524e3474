// Calls that spend money: routed capabilities at {prefix}/<capability> and pass-through calls of one
// provider operation at {prefix}/<provider>/<path>.
import { getRouterParam, HTTPResponse, type H3 } from 'h3';
import type { AppContext } from '../context.ts';
import { fail } from '../errors.ts';
import { requireTeam } from '../auth.ts';
import { readJson } from '../body.ts';
import { parseRouteOptions } from '../router/options.ts';
import { passThrough } from '../router/pass-through.ts';

export function proxyRoutes(app: H3, ctx: AppContext): void {
  const { config, state, router } = ctx;
  const prefix = config.proxyPrefix;

  app.post(`${prefix}/:capability`, async (event) => {
    const capability = getRouterParam(event, 'capability')!;
    if (!router.isCapability(capability)) fail(404, `No routed capability '${capability}'. GET /catalog/platforms lists them.`);
    const team = await requireTeam(event, state);
    const options = parseRouteOptions(event.req.headers);
    const body = await readJson(event, config.maxBodyBytes);
    const answer = await router.call(team, capability, body ?? {}, options);
    // HTTPResponse lets h3's Node adapter write the string straight out, with no web stream.
    return new HTTPResponse(JSON.stringify(answer.body), { status: answer.status, headers: { 'content-type': 'application/json', ...answer.headers } });
  });

  app.all(`${prefix}/:provider/**`, async (event) => {
    const provider = getRouterParam(event, 'provider')!;
    if (!ctx.catalog.runtime.providers[provider]) fail(404, `No provider '${provider}' in the catalog.`);
    const team = await requireTeam(event, state);
    return passThrough(ctx, team, provider, event);
  });
}
