// The tool hub: publish, check, read, run, retire, and the maker's run list. Every route needs a
// credential; the logic lives in runtime/hub/.
import { getQuery, getRouterParam, HTTPResponse, type H3, type H3Event } from 'h3';
import type { AppContext } from '../context.ts';
import { bodyValidator, queryValidator } from '../validate.ts';
import * as schemas from '../request-schemas.ts';
import { readJson } from '../body.ts';
import { requireTeam } from '../auth.ts';
import { Hub } from '../hub/service.ts';
import { parseRef, parseToolId } from '../hub/access.ts';
import type { FileName } from '../hub/types.ts';

type Files = Record<FileName, string>;
const publishBody = bodyValidator<{ tool_id: string; files: Files }>(schemas.publishBody);
const versionBody = bodyValidator<{ files: Files }>(schemas.publishVersionBody);
const runBody = bodyValidator<{ input: Record<string, unknown> }>(schemas.runBody);
const runsQuery = queryValidator<{ cursor?: string }>(schemas.runsQuery);
const listQuery = queryValidator<{ mine?: string }>(schemas.toolListQuery);

export function hubRoutes(app: H3, ctx: AppContext): void {
  const { config, state } = ctx;
  const hub = new Hub(ctx);
  const param = (event: H3Event) => getRouterParam(event, 'tool', { decode: true }) ?? '';
  const ref = (event: H3Event) => parseRef(param(event));
  const body = (event: H3Event) => readJson(event, config.maxBodyBytes);

  app.post('/hub/tools', async (event) => {
    const team = await requireTeam(event, state);
    const { tool_id, files } = publishBody(await body(event));
    return new HTTPResponse(JSON.stringify(await hub.publish(team, tool_id, files, 'create')), { status: 201, headers: { 'content-type': 'application/json' } });
  });

  app.get('/hub/tools', async (event) => {
    const team = await requireTeam(event, state);
    return listQuery(getQuery(event)).mine === '1' ? hub.mine(team) : hub.list(team);
  });

  app.put('/hub/tools/:tool', async (event) => {
    const team = await requireTeam(event, state);
    const id = parseToolId(param(event), 'A new version');
    const { files } = versionBody(await body(event));
    return hub.publish(team, id, files, 'update');
  });

  app.get('/hub/tools/:tool', async (event) => hub.view(await requireTeam(event, state), ref(event)));

  app.delete('/hub/tools/:tool', async (event) => hub.retire(await requireTeam(event, state), parseToolId(param(event), 'Retiring')));

  app.post('/hub/tools/:tool/check', async (event) => hub.check(await requireTeam(event, state), ref(event)));

  app.post('/hub/tools/:tool/run', async (event) => {
    const team = await requireTeam(event, state);
    const { input } = runBody((await body(event)) ?? {});
    const answer = await hub.run(team, ref(event), input);
    return new HTTPResponse(JSON.stringify(answer.body), { status: answer.status, headers: { 'content-type': 'application/json', ...answer.headers } });
  });

  app.get('/hub/tools/:tool/runs', async (event) => {
    const team = await requireTeam(event, state);
    const { cursor } = runsQuery(getQuery(event));
    return hub.runs(team, parseToolId(param(event), 'The run list'), cursor ? Number(cursor) : null);
  });
}
