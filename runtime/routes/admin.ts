// /admin/*: team administration, only when the server starts with SVC_ADMIN_TOKEN (404 otherwise),
// authorised by the x-svc-admin header.
import { getRouterParam, type H3, type H3Event } from 'h3';
import type { AppContext } from '../context.ts';
import { fail, invalid } from '../errors.ts';
import { bodyValidator } from '../validate.ts';
import { createTeamBody, creditBody as creditSchema } from '../request-schemas.ts';
import { readJson } from '../body.ts';
import { formatUsd, parseUsdToMicro, type State, type Team } from '../state/index.ts';
import { safeEqual } from '../state/secrets.ts';
import { slugify } from '../state/teams.ts';

const createBody = bodyValidator<{ name: string; credit_usd?: number | string }>(createTeamBody);
const creditBody = bodyValidator<{ usd: number | string }>(creditSchema);

/** micro-USD of a validated amount, or 422 naming the field */
function micro(value: number | string | undefined, field: string, min: number): number {
  if (value === undefined) return 0;
  const m = parseUsdToMicro(value);
  if (m === null) invalid([{ loc: ['body', field], msg: `'${field}' must be a USD amount with at most 6 decimals, up to ${formatUsd(Number.MAX_SAFE_INTEGER)}.`, type: 'value_error.usd' }]);
  if (m < min) invalid([{ loc: ['body', field], msg: `'${field}' must be greater than 0.`, type: 'value_error.usd' }]);
  return m;
}

async function teamParam(event: H3Event, state: State): Promise<Team> {
  const slug = getRouterParam(event, 'team') ?? '';
  const team = await state.teamBySlug(slug);
  if (!team) fail(404, `No team '${slug.slice(0, 64)}'.`);
  return team;
}

export function adminRoutes(app: H3, { config, state }: AppContext): void {
  const adminToken = config.adminToken;
  if (!adminToken) {
    app.all('/admin/**', () => fail(404, 'Administration is disabled on this server: start it with SVC_ADMIN_TOKEN set.'));
    return;
  }
  const authorise = (event: H3Event) => {
    const given = event.req.headers.get('x-svc-admin');
    if (!given || !safeEqual(given, adminToken)) fail(401, 'Administration requires a valid x-svc-admin header.');
  };

  app.get('/admin/teams', async (event) => {
    authorise(event);
    const teams = await state.teams();
    return { teams: await Promise.all(teams.map(async (t) => ({ team: t.slug, name: t.name, created_at: t.created_at, balance_micro: await state.balance(t.id) }))) };
  });

  app.post('/admin/teams', async (event) => {
    authorise(event);
    const body = createBody(await readJson(event, config.maxBodyBytes));
    const credit = micro(body.credit_usd, 'credit_usd', 0);
    if (!slugify(body.name)) invalid([{ loc: ['body', 'name'], msg: "'name' needs at least one letter or digit.", type: 'value_error.slug' }]);
    const created = await state.createTeam(body.name, credit);
    if (!created) fail(409, `A team with the slug '${slugify(body.name)}' already exists.`);
    event.res.status = 201;
    return { team: created.team.slug, token: created.token };
  });

  app.post('/admin/teams/:team/tokens', async (event) => {
    authorise(event);
    const team = await teamParam(event, state);
    event.res.status = 201;
    return { token: await state.issueToken(team.id) };
  });

  app.post('/admin/teams/:team/credit', async (event) => {
    authorise(event);
    const team = await teamParam(event, state);
    const amount = micro(creditBody(await readJson(event, config.maxBodyBytes)).usd, 'usd', 1);
    const balance = await state.credit(team.id, amount);
    if (balance === null) invalid([{ loc: ['body', 'usd'], msg: `That credit would take the balance past ${formatUsd(Number.MAX_SAFE_INTEGER)} USD, the most svc keeps exactly; nothing was credited.`, type: 'value_error.usd' }]);
    return { balance_micro: balance };
  });
}
