// POST /reviews: a team's verdict on one catalog operation (or a live hub tool, hub:<tool_id>), one per team, operation and month (a
// second replaces the first). Summaries show on the operation's catalog entry and as a sibling.
import { route } from '../http/declared-route.ts';
import { fail, invalid } from '../util/fail.ts';
import { liveToolsOf } from '../hub/live-tools.ts';
import * as schemas from '../http/request-schemas.ts';
import type { ReviewIn } from '../feedback/reviews.ts';
import type { Team } from '../state/index.ts';

export const reviewRoutes = [
  route<{ team: Team; body: ReviewIn }>({
    method: 'POST',
    path: '/reviews',
    summary: 'Review a catalog operation, or a live hub tool as hub:<tool_id>: one per team, operation and month (UTC); a second replaces the first',
    tags: ['feedback'],
    auth: 'team',
    request: { body: schemas.reviewBody },
    responses: {
      201: {
        description: 'Stored',
        schema: {
          type: 'object',
          required: ['id', 'endpoint_id', 'usefulness', 'month', 'replaced'],
          properties: {
            id: { type: 'integer' },
            endpoint_id: { type: 'string' },
            usefulness: schemas.reviewBody.properties.usefulness,
            month: { type: 'string', pattern: '^\\d{4}-\\d{2}$' },
            replaced: { type: 'boolean' },
          },
        },
      },
      400: 'Body is not JSON',
      401: 'No or bad credential',
      403: 'x-svc-org names another team',
      422: 'Validation error',
    },
    handle: async ({ ctx, event, team, body }) => {
      const { catalog, reviews } = ctx;
      const toolId = body.endpoint_id.startsWith('hub:') ? body.endpoint_id.slice(4) : null;
      if (toolId !== null) {
        // a live hub tool is reviewed as hub:<tool_id>, by any team but its maker
        const tool = (await liveToolsOf(ctx).current()).find((t) => t.tool_id === toolId);
        if (!tool)
          invalid([{ loc: ['body', 'endpoint_id'], msg: `No live hub tool '${toolId}'; GET /hub/tools lists them.`, type: 'value_error.unknown_endpoint' }]);
        if (tool.team_id === team.id) fail(403, `Your team made '${toolId}'; reviews of a tool come from the teams that use it.`);
      } else if (!catalog.endpointBytes(body.endpoint_id)) {
        invalid([
          {
            loc: ['body', 'endpoint_id'],
            msg: `No endpoint '${body.endpoint_id}' in the catalog; GET /catalog/search?q=… finds one.`,
            type: 'value_error.unknown_endpoint',
          },
        ]);
      }
      const { review, replaced } = await reviews.submit(team.id, body);
      event.res.status = 201;
      return { id: review.id, endpoint_id: body.endpoint_id, usefulness: review.usefulness, month: review.month, replaced };
    },
  }),
];
