// Calls that spend money: routed capabilities at {prefix}/<capability> and pass-through calls of one
// provider operation at {prefix}/<provider>/<path>.
import { getCookie, HTTPResponse, type H3Event } from 'h3';
import type { AppContext } from '../context/context.ts';
import { route } from '../http/declared-route.ts';
import { errorAnswer } from '../http/errors.ts';
import { fail, type PlainAnswer } from '../util/fail.ts';
import { requireTeam, SESSION_COOKIE } from '../http/auth.ts';
import { readJson } from '../http/body.ts';
import { answerRoutedCall } from '../http/routed-door.ts';
import type { Team } from '../state/index.ts';
import { newCallId } from '../util/call-id.ts';

/** a body is read only where the method carries one (nothing sent is `undefined`) */
const carriesBody = (method: string) => method !== 'GET' && method !== 'DELETE' && method !== 'HEAD';

/** A pass-through call through the router; every answer names the call, a refusal or a storage 503 too. */
export async function passThroughAnswer(
  ctx: AppContext,
  event: H3Event,
  teamOf: () => Team | Promise<Team>,
  provider: string,
  callId: string,
): Promise<HTTPResponse> {
  let answer: PlainAnswer;
  try {
    const team = await teamOf();
    const url = new URL(event.req.url);
    const method = event.req.method;
    answer = await ctx.router.passThrough(
      team,
      {
        provider,
        method,
        path: url.pathname.slice(`${ctx.config.proxyPrefix}/${provider}`.length) || '/',
        query: url.searchParams,
        headers: event.req.headers,
        body: carriesBody(method) ? await readJson(event, ctx.config.maxBodyBytes) : undefined,
      },
      callId,
    );
  } catch (e) {
    answer = errorAnswer(e, callId);
  }
  return new HTTPResponse(answer.text, { status: answer.status, headers: answer.headers });
}

export const proxyRoutes = [
  route<{ path: { capability: string } }>({
    // the call checks the credential itself: the Node fast path answers it with the same code
    method: 'POST',
    path: '{proxy}/{capability}',
    tags: ['routed'],
    auth: 'team',
    checksCredential: true,
    openapi: 'each-capability',
    summary: 'A routed call of one capability', // /openapi.json lists each capability with its own description and schema
    responses: {
      200: {
        description: 'Hit or miss, in the routed wrapper; with X-Svc-Route-Dry-Run: 1, the plan and its worst cost instead',
        schema: { anyOf: [{ $ref: '#/components/schemas/RoutedResponse' }, { $ref: '#/components/schemas/DryRunResponse' }] },
      },
      401: 'No or bad credential',
      402: 'Balance too low',
      422: 'Validation error',
      502: 'Every child failed with an error',
    },
    handle: async ({ ctx, event, path: { capability } }) => {
      // a provider's operation at its root path (`/`) is reached here: a pass-through call, with its 405 and Allow
      if (!ctx.router.isCapability(capability) && Object.hasOwn(ctx.catalog.runtime.providers, capability)) {
        return passThroughAnswer(ctx, event, () => requireTeam(event, ctx.state), capability, newCallId());
      }
      const answer = await answerRoutedCall(ctx, capability, {
        headers: event.req.headers,
        sessionCookie: () => getCookie(event, SESSION_COOKIE) ?? null,
        readBody: () => readJson(event, ctx.config.maxBodyBytes),
        // the client's connection closed (app.fetch: the request's signal aborted)
        gone: () => event.req.signal.aborted,
      });
      // HTTPResponse lets h3's Node adapter write the string straight out, with no web stream.
      return new HTTPResponse(answer.text, { status: answer.status, headers: answer.headers });
    },
  }),

  route<{ team: Team; path: { provider: string }; callId: string }>({
    method: 'ANY',
    documentedMethods: ['GET', 'POST'],
    path: '{proxy}/{provider}/{path*}',
    tags: ['pass-through'],
    auth: 'team',
    paid: true,
    operationId: 'passThrough',
    summary: "Call one catalog operation as its provider defines it, svc's key injected; the provider's own status and body",
    request: {
      about: { provider: 'provider key, e.g. hunter', path: "the operation's path as in its catalog entry; may hold slashes" },
      // the route headers that mean something for one operation (runtime/router/pass-through-options.ts); the others are a 422
      headers: {
        'X-Svc-Route-Max-Cost':
          'Ceiling in USD: a call that may cost more (its price, or its price for the rows it may return) is a 422, nothing called or charged.',
        'X-Svc-Route-Dry-Run': '1: answer {plan, excluded, worst_cost_micro} for this one operation without calling it or charging.',
      },
    },
    responses: {
      default: "The provider's answer, with X-Svc-Cost-Micro and X-Svc-Key (platform or own)",
      401: 'No or bad credential',
      402: 'Balance too low',
      404: 'No such provider or operation',
      405: 'Not the method the operation declares',
      422: 'A parameter the operation does not declare (strict entries), or a route header that does not apply or whose ceiling the call passes',
      502: "The provider refused svc's key or failed",
    },
    handle: async ({ ctx, event, team, path: { provider }, callId }) => {
      if (!Object.hasOwn(ctx.catalog.runtime.providers, provider)) {
        if (ctx.router.isCapability(provider)) {
          const base = `${ctx.config.proxyPrefix}/${provider}`;
          const rest = new URL(event.req.url).pathname.slice(base.length);
          // the capability's own path, its batch and a batch's stop take POST only: they reach here with another method
          if (rest === '' || rest === '/') fail(405, `${provider} is a routed capability: call it with POST and a JSON body.`, { allow: 'POST' });
          if (rest === '/batch') fail(405, `The batch of ${provider} takes POST with an NDJSON body, one subject per line.`, { allow: 'POST' });
          if (/^\/batch\/[^/]+\/stop$/.test(rest)) fail(405, `Asking a batch of ${provider} to stop takes POST.`, { allow: 'POST' });
          fail(404, `No path ${rest} under the routed capability ${provider}: POST ${base} calls it for one subject, POST ${base}/batch for a list.`);
        }
        fail(404, `No provider '${provider}' in the catalog.`);
      }
      return passThroughAnswer(ctx, event, () => team, provider, callId);
    },
  }),
];
