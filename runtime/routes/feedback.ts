// POST /feedback, GET /feedback/{id}: what a team tells svc, readable back by that team only.
import { getRouterParams, type H3 } from 'h3';
import type { AppContext } from '../context.ts';
import { fail } from '../errors.ts';
import { bodyValidator, queryValidator } from '../validate.ts';
import * as schemas from '../request-schemas.ts';
import { readJson } from '../body.ts';
import { requireTeam } from '../auth.ts';
import type { FeedbackIn } from '../feedback/feedback.ts';

const feedbackBody = bodyValidator<FeedbackIn>(schemas.feedbackBody);
const feedbackParams = queryValidator<{ feedback_id: number }>(schemas.feedbackParams, 'path');

export function feedbackRoutes(app: H3, { config, state }: AppContext): void {
  app.post('/feedback', async (event) => {
    const team = await requireTeam(event, state);
    const record = await state.feedback.submit(team.id, feedbackBody(await readJson(event, config.maxBodyBytes)));
    event.res.status = 201;
    return { id: record.id, status: record.status, created_at: record.created_at };
  });

  app.get('/feedback/:feedback_id', async (event) => {
    const team = await requireTeam(event, state);
    const { feedback_id } = feedbackParams(getRouterParams(event));
    return (await state.feedback.get(team.id, feedback_id)) ?? fail(404, `No feedback ${feedback_id} from team '${team.slug}'.`);
  });
}
