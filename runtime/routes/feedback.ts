// POST /feedback, GET /feedback/{id}: what a team tells svc, readable back by that team only.
import { route } from '../http/declared-route.ts';
import { fail } from '../util/fail.ts';
import * as schemas from '../http/request-schemas.ts';
import type { FeedbackIn } from '../feedback/feedback.ts';
import type { Team } from '../state/index.ts';

const received = { id: { type: 'integer' }, status: { const: 'received' }, created_at: { type: 'string', format: 'date-time' } };

export const feedbackRoutes = [
  route<{ team: Team; body: FeedbackIn }>({
    method: 'POST',
    path: '/feedback',
    summary: 'Tell svc about a bug, wrong data, a missing provider, a price, an idea',
    tags: ['feedback'],
    auth: 'team',
    request: { body: schemas.feedbackBody },
    responses: {
      201: { description: 'Received', schema: { type: 'object', required: ['id', 'status', 'created_at'], properties: received } },
      400: 'Body is not JSON',
      401: 'No or bad credential',
      403: 'x-svc-org names another team',
      413: 'Body too large',
      422: 'Validation error',
    },
    handle: async ({ ctx: { feedback }, event, team, body }) => {
      const record = await feedback.submit(team.id, body);
      event.res.status = 201;
      return { id: record.id, status: record.status, created_at: record.created_at };
    },
  }),

  route<{ team: Team; path: { feedback_id: number } }>({
    method: 'GET',
    path: '/feedback/{feedback_id}',
    summary: 'One feedback record, to the team that sent it',
    tags: ['feedback'],
    auth: 'team',
    request: { path: schemas.feedbackParams, about: { feedback_id: 'id answered by POST /feedback' } },
    responses: {
      200: {
        description: 'The record',
        schema: {
          type: 'object',
          required: ['id', 'kind', 'message', 'status', 'created_at'],
          properties: { ...schemas.feedbackBody.properties, ...received },
        },
      },
      401: 'No or bad credential',
      404: 'No such record from this team',
      422: 'Validation error',
    },
    handle: async ({ ctx: { feedback }, team, path: { feedback_id } }) =>
      (await feedback.get(team.id, feedback_id)) ?? fail(404, `No feedback ${feedback_id} from team '${team.slug}'.`),
  }),
];
