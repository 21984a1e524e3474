// Search results, recomputed on every keystroke in the browser; arrow keys move, Enter opens.
import { search } from '../lib/search.ts';
import { h } from '../lib/dom.ts';
import { usd } from '../lib/format.ts';
import { href } from '../lib/router.ts';

export async function searchPage(q: string): Promise<Node> {
  const { hits, total, nothing } = await search(q);
  const none = nothing
    ? `Nothing does this: no operation knows any word of “${q}”. Describe the data you want, such as “verify an email”.`
    : `Nothing matches “${q}”: try fewer or broader words.`;
  return h(
    'section',
    {},
    h(
      'p',
      { class: 'muted', id: 'result-count' },
      hits.length ? `${total} operations match “${q}”${total > hits.length ? `; the best ${hits.length} are shown` : ''}` : none,
    ),
    h(
      'ol',
      { id: 'results', class: 'results' },
      hits.map(({ row }, i) =>
        h(
          'li',
          {},
          h(
            'a',
            { href: href.operation(row.endpoint_id), class: i === 0 ? 'active' : null },
            h('strong', {}, row.name),
            ' ',
            h('span', { class: 'badge' }, row.kind === 'routed' ? 'routed' : row.provider_display),
            h('span', { class: 'price' }, usd(row.usd)),
            h('br'),
            h('span', { class: 'muted' }, `${row.endpoint_id} — ${row.summary}`),
          ),
        ),
      ),
    ),
  );
}

/** Arrow keys in the search box move the highlighted result; Enter opens it; Escape leaves the search. */
export function resultKeys(e: KeyboardEvent): void {
  if (e.key === 'Escape') {
    location.hash = href.home();
    return;
  }
  const links = [...document.querySelectorAll<HTMLAnchorElement>('#results a')];
  if (!links.length) return;
  const at = Math.max(
    0,
    links.findIndex((a) => a.classList.contains('active')),
  );
  const move = e.key === 'ArrowDown' ? 1 : e.key === 'ArrowUp' ? -1 : 0;
  if (move) {
    e.preventDefault();
    const next = links[(at + move + links.length) % links.length];
    links[at].classList.remove('active');
    next.classList.add('active');
    next.scrollIntoView({ block: 'nearest' });
  } else if (e.key === 'Enter') {
    e.preventDefault();
    location.hash = links[at].getAttribute('href')!;
  }
}
