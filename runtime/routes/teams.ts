// The caller's own team: balance, ledger, own provider keys (never shown back), tokens, and the
// feedback and reviews it sent.
import { route } from '../http/declared-route.ts';
import type { AppContext } from '../context/context.ts';
import { fail, invalid } from '../util/fail.ts';
import { credentialsOf } from '../http/auth.ts';
import * as schemas from '../http/request-schemas.ts';
import type { Team } from '../state/index.ts';
import { sha256 } from '../state/secrets.ts';
import { tokenId } from '../state/tokens.ts';
import { tokenOptions } from './token-options.ts';

/** a provider of the catalog, or 404 */
function providerNamed(name: string, { catalog }: AppContext): string {
  if (!Object.hasOwn(catalog.runtime.providers, name)) fail(404, `No provider '${name.slice(0, 64)}' in the catalog.`);
  return name;
}

/**
 * A key travels in a header (or query, or basic auth), which carries visible Latin-1 and nothing else:
 * a line break, a C0 or C1 control (U+0085, U+009B), or a character past U+00FF (U+2028, a curly quote
 * pasted from a mail) would make every later attempt fail as a network error. 422 naming the provider.
 */
function headerSafeKey(provider: string, key: string): string {
  // only spaces are trimmed: JavaScript's trim() would also drop U+2028 and keep U+0085
  const trimmed = key.replace(/^ +| +$/g, '');
  const bad = /[^\u0020-\u007e\u00a0-\u00ff]/u.exec(trimmed);
  if (!trimmed || bad) {
    const what = bad ? `holds U+${bad[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}, which a request header cannot carry` : 'is blank';
    invalid([
      {
        loc: ['body', 'key'],
        msg: `The ${provider} key ${what}: send the key alone, as ${provider} issued it (visible Latin-1 characters only). Nothing was stored.`,
        type: 'value_error.key',
      },
    ]);
  }
  return trimmed;
}

const mine = { tags: ['teams'], auth: 'team' } as const;

/** what lists a team's sent records a page at a time, below an id */
interface SentList {
  list(teamId: number, before: number | null): Promise<{ rows: object[]; next: number | null }>;
}

/** GET /teams/me/<what>: what the team sent, newest first; the cursor is the last id of the page before */
function sentRoute(what: 'feedback' | 'reviews', summary: string, fields: string, store: (ctx: AppContext) => SentList) {
  return route<{ team: Team; query: { cursor?: string } }>({
    ...mine,
    method: 'GET',
    path: `/teams/me/${what}`,
    summary,
    request: { query: schemas.ledgerQuery, about: { cursor: 'next_cursor of the previous page' } },
    responses: {
      200: `Page: {${what}: [{${fields}}], next_cursor}`,
      401: 'No or bad credential',
      403: 'x-svc-org names another team',
      422: 'Validation error',
    },
    handle: async ({ ctx, team, query: { cursor } }) => {
      // the schema lets only digits through; empty is the first page
      const { rows, next } = await store(ctx).list(team.id, cursor ? Number(cursor) : null);
      return { [what]: rows, next_cursor: next === null ? null : String(next) };
    },
  });
}

export const teamRoutes = [
  route<{ team: Team }>({
    ...mine,
    method: 'GET',
    path: '/teams/me',
    summary: "The caller's team: balance, earnings, providers with own keys, and those keys set aside now",
    responses: { 200: 'Team', 401: 'No or bad credential', 403: 'x-svc-org names another team' },
    handle: async ({ ctx, team }) => {
      const { balance_micro, earnings_micro } = await ctx.state.account(team.id);
      const own_keys = await ctx.state.ownKeyProviders(team.id);
      // a key its provider refused lately is not used until then: calls go on the platform key, charged to the balance
      const own_keys_set_aside = ctx.router.deps.health.setAside(team.id, own_keys);
      return { team: team.slug, name: team.name, balance_micro, earnings_micro, own_keys, own_keys_set_aside };
    },
  }),

  route<{ team: Team; query: { cursor?: string } }>({
    ...mine,
    method: 'GET',
    path: '/teams/me/ledger',
    summary: 'Ledger entries, newest first, 50 a page',
    request: { query: schemas.ledgerQuery, about: { cursor: 'next_cursor of the previous page' } },
    responses: { 200: 'Ledger page', 401: 'No or bad credential', 422: 'Validation error' },
    handle: ({ ctx: { state }, team, query: { cursor } }) => state.ledger(team.id, cursor || null),
  }),

  sentRoute(
    'feedback',
    'Feedback the team sent, newest first, 50 a page',
    'id, kind, message, endpoint_id?, capability?, context?, status, created_at',
    (ctx) => ctx.feedback,
  ),
  sentRoute(
    'reviews',
    'Reviews the team wrote (its standing one per operation and month), newest first, 50 a page',
    'id, endpoint_id, usefulness, reason, client, month, at',
    (ctx) => ctx.reviews,
  ),

  route<{ team: Team; path: { provider: string }; body: { key: string } }>({
    ...mine,
    method: 'POST',
    path: '/teams/me/keys/{provider}',
    summary: "Store the team's own key for a provider (encrypted at rest, never shown again)",
    request: { body: schemas.keyBody, about: { provider: 'provider key, e.g. hunter' } },
    responses: { 200: 'Stored', 401: 'No or bad credential', 404: 'Unknown provider', 413: 'Body too large', 422: 'Validation error' },
    handle: async ({ ctx, team, path, body: { key } }) => {
      const name = providerNamed(path.provider, ctx);
      await ctx.state.setOwnKey(team.id, name, headerSafeKey(name, key));
      ctx.router.deps.health.ownKeyReplaced(team.id, name);
      return { provider: name, stored: true };
    },
  }),

  route<{ team: Team; path: { provider: string } }>({
    ...mine,
    method: 'DELETE',
    path: '/teams/me/keys/{provider}',
    summary: "Remove the team's own key for a provider",
    request: { about: { provider: 'provider key' } },
    responses: { 200: 'Removed', 401: 'No or bad credential', 404: 'Unknown provider' },
    handle: async ({ ctx, team, path }) => {
      const name = providerNamed(path.provider, ctx);
      const removed = await ctx.state.removeOwnKey(team.id, name);
      ctx.router.deps.health.ownKeyReplaced(team.id, name);
      return { provider: name, stored: false, removed };
    },
  }),

  route<{ team: Team }>({
    ...mine,
    method: 'GET',
    path: '/teams/me/tokens',
    summary: "The team's API tokens (never a secret), oldest first, revoked and expired ones included",
    responses: {
      200: 'Tokens: {tokens: [{id, name, created_at, expires_at, revoked_at, status, current}]}',
      401: 'No or bad credential',
      403: 'x-svc-org names another team, or the team is disabled',
    },
    handle: async ({ ctx: { state }, event, team }) => {
      // `current`: the token of this request, or the one its dashboard session was opened with
      const { token, session } = credentialsOf(event);
      const current = token ? tokenId(sha256(token)) : session ? await state.sessionTokenId(session) : null;
      return { tokens: (await state.tokens(team.id)).map((t) => ({ ...t, current: t.id === current })) };
    },
  }),

  route<{ team: Team; body: { name?: string; expires_at?: string } }>({
    ...mine,
    method: 'POST',
    path: '/teams/me/tokens',
    summary: 'Create a token for the team, optionally named and with an expiry; the secret is answered this once',
    request: { body: schemas.tokenBody, emptyBody: {} },
    responses: {
      201: 'The token (shown once) and its listing: {token, id, name, created_at, expires_at, revoked_at, status}',
      401: 'No or bad credential',
      403: 'x-svc-org names another team, or the team is disabled',
      422: 'Validation error',
    },
    handle: async ({ ctx: { state }, event, team, body }) => {
      const { token, view } = await state.issueToken(team.id, tokenOptions(body));
      event.res.status = 201;
      return { token, ...view };
    },
  }),

  route<{ team: Team; path: { token_id: string } }>({
    ...mine,
    method: 'DELETE',
    path: '/teams/me/tokens/{token_id}',
    summary: "Revoke one of the team's tokens: refused from the next call on, on every instance",
    request: { path: schemas.tokenParams, about: { token_id: 'the id a listing shows (tok_…)' } },
    responses: {
      200: 'Revoked: the token as listings now show it',
      401: 'No or bad credential',
      403: 'x-svc-org names another team, or the team is disabled',
      404: 'No such token of the team',
      422: 'Validation error',
    },
    handle: async ({ ctx: { state }, team, path: { token_id } }) => {
      const view = await state.revokeToken(team.id, token_id);
      if (!view) fail(404, `The team has no token '${token_id}'; GET /teams/me/tokens lists them.`);
      return view;
    },
  }),
];
