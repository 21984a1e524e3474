// /admin/*: team administration, only when the server starts with SVC_ADMIN_TOKEN (404 otherwise),
// authorised by the x-svc-admin header.
import { route } from '../http/declared-route.ts';
import type { Config } from '../config/config.ts';
import { fail, invalid } from '../util/fail.ts';
import * as schemas from '../http/request-schemas.ts';
import { formatUsd, parseUsdToMicro, type State, type Team } from '../state/index.ts';
import { slugify } from '../state/teams.ts';
import { tokenOptions } from './token-options.ts';

/** micro-USD of a validated amount, or 422 naming the field */
function micro(value: number | string | undefined, field: string, min: number): number {
  if (value === undefined) return 0;
  const m = parseUsdToMicro(value);
  if (m === null)
    invalid([
      {
        loc: ['body', field],
        // a JSON number of 16 digits or more may already have lost its last one when it was parsed
        msg: `'${field}' must be a USD amount with at most 6 decimals, up to ${formatUsd(Number.MAX_SAFE_INTEGER)} (sent as a string past 15 digits: a JSON number that long loses its last digit).`,
        type: 'value_error.usd',
      },
    ]);
  if (m < min) invalid([{ loc: ['body', field], msg: `'${field}' must be greater than 0.`, type: 'value_error.usd' }]);
  return m;
}

async function teamNamed(slug: string, state: State): Promise<Team> {
  const team = await state.teamBySlug(slug);
  if (!team) fail(404, `No team '${slug.slice(0, 64)}'.`);
  return team;
}

const enabled = (config: Config) => Boolean(config.adminToken);
const admin = { tags: ['admin'], auth: 'admin', when: enabled } as const;
const team = { about: { team: 'team slug' } };

export const adminRoutes = [
  route({
    ...admin,
    method: 'GET',
    path: '/admin/teams',
    summary: 'Every team with its balance, oldest first',
    responses: { 200: 'Teams', 401: 'Bad x-svc-admin', 404: 'Administration disabled' },
    handle: async ({ ctx: { state } }) => {
      const teams = await state.teams();
      return {
        teams: await Promise.all(
          teams.map(async (t) => ({
            team: t.slug,
            name: t.name,
            created_at: t.created_at,
            balance_micro: await state.balance(t.id),
            disabled_at: await state.teamDisabledAt(t.id),
          })),
        ),
      };
    },
  }),

  route<{ body: { name: string; credit_usd?: number | string } }>({
    ...admin,
    method: 'POST',
    path: '/admin/teams',
    summary: 'Create a team with credit and its first token (SVC_ADMIN_TOKEN only)',
    request: { body: schemas.createTeamBody },
    responses: { 201: 'Team and token (shown once)', 401: 'Bad x-svc-admin', 404: 'Administration disabled', 409: 'Slug taken', 422: 'Validation error' },
    handle: async ({ ctx: { state }, event, body }) => {
      const credit = micro(body.credit_usd, 'credit_usd', 0);
      if (!slugify(body.name)) invalid([{ loc: ['body', 'name'], msg: "'name' needs at least one letter or digit.", type: 'value_error.slug' }]);
      const created = await state.createTeam(body.name, credit);
      if (!created) fail(409, `A team with the slug '${slugify(body.name)}' already exists.`);
      event.res.status = 201;
      return { team: created.team.slug, token: created.token };
    },
  }),

  route<{ path: { team: string }; body: { name?: string; expires_at?: string } }>({
    ...admin,
    method: 'POST',
    path: '/admin/teams/{team}/tokens',
    summary: 'Issue another token for a team, optionally named and with an expiry',
    request: { ...team, body: schemas.tokenBody, emptyBody: {} },
    responses: {
      201: 'The token (shown once) and its listing: {token, id, name, created_at, expires_at, revoked_at, status}',
      401: 'Bad x-svc-admin',
      404: 'Unknown team or administration disabled',
      422: 'Validation error',
    },
    handle: async ({ ctx: { state }, event, path, body }) => {
      const found = await teamNamed(path.team, state);
      const { token, view } = await state.issueToken(found.id, tokenOptions(body));
      event.res.status = 201;
      return { token, ...view };
    },
  }),

  route<{ path: { team: string } }>({
    ...admin,
    method: 'GET',
    path: '/admin/teams/{team}/tokens',
    summary: "A team's tokens (never a secret), oldest first, revoked and expired ones included",
    request: team,
    responses: {
      200: 'Tokens: {tokens: [{id, name, created_at, expires_at, revoked_at, status}]}',
      401: 'Bad x-svc-admin',
      404: 'Unknown team or administration disabled',
    },
    handle: async ({ ctx: { state }, path }) => ({ tokens: await state.tokens((await teamNamed(path.team, state)).id) }),
  }),

  route<{ path: { team: string; token_id: string } }>({
    ...admin,
    method: 'DELETE',
    path: '/admin/teams/{team}/tokens/{token_id}',
    summary: "Revoke a team's token: refused from the next call on, on every instance",
    request: {
      path: { ...schemas.tokenParams, required: ['team', 'token_id'], properties: { team: { type: 'string' }, ...schemas.tokenParams.properties } },
      about: { team: 'team slug', token_id: 'the id a listing shows (tok_…)' },
    },
    responses: {
      200: 'Revoked: the token as listings now show it',
      401: 'Bad x-svc-admin',
      404: 'Unknown team or token, or administration disabled',
      422: 'Validation error',
    },
    handle: async ({ ctx: { state }, path }) => {
      const found = await teamNamed(path.team, state);
      const view = await state.revokeToken(found.id, path.token_id);
      if (!view) fail(404, `Team '${found.slug}' has no token '${path.token_id}'.`);
      return view;
    },
  }),

  ...(['disable', 'enable'] as const).map((action) =>
    route<{ path: { team: string } }>({
      ...admin,
      method: 'POST',
      path: `/admin/teams/{team}/${action}`,
      request: team,
      summary:
        action === 'disable'
          ? 'Disable a team: every token and session of it is refused at once, on every instance (its data and balance stay)'
          : 'Enable a disabled team again',
      responses: { 200: '{team, disabled_at}', 401: 'Bad x-svc-admin', 404: 'Unknown team or administration disabled' },
      handle: async ({ ctx: { state }, path }) => {
        const found = await teamNamed(path.team, state);
        await state.setTeamDisabled(found.id, action === 'disable');
        return { team: found.slug, disabled_at: await state.teamDisabledAt(found.id) };
      },
    }),
  ),

  route<{ path: { team: string }; body: { usd: number | string } }>({
    ...admin,
    method: 'POST',
    path: '/admin/teams/{team}/credit',
    summary: "Add credit to a team's balance",
    request: { ...team, body: schemas.creditBody },
    responses: { 200: 'New balance', 401: 'Bad x-svc-admin', 404: 'Unknown team or administration disabled', 422: 'Validation error' },
    handle: async ({ ctx: { state }, path, body }) => {
      const found = await teamNamed(path.team, state);
      const amount = micro(body.usd, 'usd', 1);
      const balance = await state.credit(found.id, amount);
      if (balance === null)
        invalid([
          {
            loc: ['body', 'usd'],
            msg: `That credit would take the balance past ${formatUsd(Number.MAX_SAFE_INTEGER)} USD, the most svc keeps exactly; nothing was credited.`,
            type: 'value_error.usd',
          },
        ]);
      return { balance_micro: balance };
    },
  }),

  // A server without SVC_ADMIN_TOKEN answers every /admin/ path so, whatever the method.
  route({
    method: 'ANY',
    path: '/admin/{rest*}',
    summary: 'Administration is disabled',
    tags: ['admin'],
    auth: 'none',
    openapi: 'omit',
    when: (config) => !enabled(config),
    responses: { 404: 'Administration disabled' },
    handle: () => fail(404, 'Administration is disabled on this server: start it with SVC_ADMIN_TOKEN set.'),
  }),
];
