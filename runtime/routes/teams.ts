// The caller's own team: balance, ledger, own provider keys (never shown back).
import { getQuery, getRouterParam, type H3, type H3Event } from 'h3';
import type { AppContext } from '../context.ts';
import { fail } from '../errors.ts';
import { bodyValidator, queryValidator } from '../validate.ts';
import * as schemas from '../request-schemas.ts';
import { readJson } from '../body.ts';
import { requireTeam } from '../auth.ts';

const ledgerQuery = queryValidator<{ cursor?: string }>(schemas.ledgerQuery);
const keyBody = bodyValidator<{ key: string }>(schemas.keyBody);

export function teamRoutes(app: H3, { config, catalog, state }: AppContext): void {
  const provider = (event: H3Event) => {
    const name = getRouterParam(event, 'provider') ?? '';
    if (!Object.hasOwn(catalog.runtime.providers, name)) fail(404, `No provider '${name.slice(0, 64)}' in the catalog.`);
    return name;
  };

  app.get('/teams/me', async (event) => {
    const team = await requireTeam(event, state);
    const { balance_micro, earnings_micro } = await state.account(team.id);
    return { team: team.slug, name: team.name, balance_micro, earnings_micro, own_keys: await state.ownKeyProviders(team.id) };
  });

  app.get('/teams/me/ledger', async (event) => {
    const team = await requireTeam(event, state);
    const { cursor } = ledgerQuery(getQuery(event));
    return state.ledger(team.id, cursor ?? null);
  });

  app.post('/teams/me/keys/:provider', async (event) => {
    const team = await requireTeam(event, state);
    const name = provider(event);
    const { key } = keyBody(await readJson(event, config.maxBodyBytes));
    await state.setOwnKey(team.id, name, key.trim());
    return { provider: name, stored: true };
  });

  app.delete('/teams/me/keys/:provider', async (event) => {
    const team = await requireTeam(event, state);
    const name = provider(event);
    const removed = await state.removeOwnKey(team.id, name);
    return { provider: name, stored: false, removed };
  });
}
