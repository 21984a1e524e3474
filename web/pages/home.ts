// The front page: one card per platform shelf, busiest first as the build ordered them.
import { platforms } from '../lib/data.ts';
import { h, link } from '../lib/dom.ts';
import { href } from '../lib/router.ts';

export async function homePage(): Promise<Node> {
  const list = await platforms();
  return h(
    'section',
    {},
    h('h1', {}, 'Browse by platform'),
    h('p', { class: 'muted' }, 'Type in the search box to find an operation, or open a shelf. Press / to search from anywhere.'),
    h(
      'div',
      { class: 'cards' },
      list.map((p) =>
        h(
          'a',
          { class: 'card', href: href.platform(p.slug) },
          h('h2', {}, p.label),
          h('p', {}, p.description),
          h('p', { class: 'muted' }, `${p.operations} operations · ${p.capabilities} capabilities · ${p.vendors.length} vendors`),
        ),
      ),
    ),
    h('p', { class: 'muted' }, 'Signed-in teams see their balance and ledger under ', link(href.account(), 'Account'), '.'),
  );
}
