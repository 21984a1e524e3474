// The account page's feedback and reviews: what the team sent svc, newest first, a page at a time
// (GET /teams/me/feedback and /teams/me/reviews), each linked to the operation it is about.
import { sentFeedback, sentReviews } from '../lib/data.ts';
import type { SentFeedback, SentReview } from '../../language/team-answers.ts';
import { h, link } from '../lib/dom.ts';
import { href } from '../lib/router.ts';

type Cell = Node | string;

/** a table filled a page at a time, with a button for the next page while there is one */
async function paged<T>(
  id: string,
  head: string[],
  load: (cursor: string | null) => Promise<{ rows: T[]; next: string | null }>,
  row: (r: T) => Cell[],
  empty: string,
): Promise<Node> {
  const body = h('tbody');
  const more = h('button', { type: 'button' }, 'Older');
  let cursor: string | null = null;
  const page = async () => {
    const { rows, next } = await load(cursor);
    body.append(
      ...rows.map((r) =>
        h(
          'tr',
          {},
          row(r).map((c) => h('td', {}, c)),
        ),
      ),
    );
    cursor = next;
    more.hidden = !next;
    return rows.length;
  };
  more.addEventListener('click', () => void page());
  if (!(await page())) return h('p', { class: 'muted', id }, empty);
  return h(
    'div',
    { class: 'scroll' },
    h(
      'table',
      { id },
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          head.map((c) => h('th', { scope: 'col' }, c)),
        ),
      ),
      body,
    ),
    more,
  );
}

/** an operation id links to its page; a hub tool (hub:<id>) to the tool's */
const about = (id: string | undefined): Cell => (!id ? '' : id.startsWith('hub:') ? link(href.tool(id.slice(4)), id) : link(href.operation(id), id));

export async function sentSection(): Promise<Node[]> {
  const feedback = await paged<SentFeedback>(
    'my-feedback',
    ['sent', 'kind', 'about', 'status', 'message'],
    async (c) => {
      const r = await sentFeedback(c);
      return { rows: r.feedback, next: r.next_cursor };
    },
    (f) => [
      f.created_at.replace('T', ' ').slice(0, 16),
      f.kind.replace('_', ' '),
      f.endpoint_id ? about(f.endpoint_id) : (f.capability ?? ''),
      f.status,
      f.message,
    ],
    'No feedback sent yet: svc feedback KIND MESSAGE sends some.',
  );
  const reviews = await paged<SentReview>(
    'my-reviews',
    ['month', 'operation', 'usefulness', 'reason'],
    async (c) => {
      const r = await sentReviews(c);
      return { rows: r.reviews, next: r.next_cursor };
    },
    (r) => [r.month, about(r.endpoint_id), r.usefulness.replace('_', ' '), r.reason],
    'No reviews yet: svc review ENDPOINT useful|partly|not_useful REASON writes one (one per operation and month).',
  );
  return [h('h3', {}, 'Feedback'), feedback, h('h3', {}, 'Reviews'), reviews];
}
