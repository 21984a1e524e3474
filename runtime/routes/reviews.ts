// POST /reviews: a team's verdict on one catalog operation, one per team, operation and month (a
// second replaces the first). Summaries show on the operation's catalog entry and as a sibling.
import type { H3 } from 'h3';
import type { AppContext } from '../context.ts';
import { invalid } from '../errors.ts';
import { bodyValidator } from '../validate.ts';
import * as schemas from '../request-schemas.ts';
import { readJson } from '../body.ts';
import { requireTeam } from '../auth.ts';
import type { ReviewIn } from '../feedback/reviews.ts';

const reviewBody = bodyValidator<ReviewIn>(schemas.reviewBody);

export function reviewRoutes(app: H3, { config, catalog, state }: AppContext): void {
  app.post('/reviews', async (event) => {
    const team = await requireTeam(event, state);
    const input = reviewBody(await readJson(event, config.maxBodyBytes));
    if (!catalog.endpointBytes(input.endpoint_id)) {
      invalid([{ loc: ['body', 'endpoint_id'], msg: `No endpoint '${input.endpoint_id}' in the catalog; GET /catalog/search?q=… finds one.`, type: 'value_error.unknown_endpoint' }]);
    }
    const { review, replaced } = await state.reviews.submit(team.id, input);
    event.res.status = 201;
    return { id: review.id, endpoint_id: input.endpoint_id, usefulness: review.usefulness, month: review.month, replaced };
  });
}
