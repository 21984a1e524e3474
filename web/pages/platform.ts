// One platform shelf, grouped by capability; a routed capability links to its plan.
import { shelf } from '../lib/data.ts';
import { h, link, table } from '../lib/dom.ts';
import { usd } from '../lib/format.ts';
import { href } from '../lib/router.ts';

export async function platformPage(slug: string): Promise<Node> {
  const s = await shelf(slug);
  return h(
    'section',
    {},
    h('h1', {}, s.label),
    h('p', {}, s.description),
    // The hash is the route, so the contents jump by script rather than by #anchor.
    h(
      'nav',
      { class: 'contents', 'aria-label': 'capabilities on this shelf' },
      s.capabilities.map((c, i) =>
        h(
          'button',
          { type: 'button', class: c.routed ? 'chip routed' : 'chip', onclick: () => document.getElementById(`cap-${i}`)?.scrollIntoView() },
          c.capability,
        ),
      ),
    ),
    s.capabilities.map((c, i) =>
      h(
        'section',
        { class: 'capability', id: `cap-${i}` },
        h('h2', {}, c.routed ? link(href.capability(c.capability), c.capability) : c.capability, c.routed ? h('span', { class: 'badge' }, 'routed') : null),
        h('p', { class: 'muted' }, c.description),
        h(
          'div',
          { class: 'scroll' },
          table(
            ['operation', 'provider', 'price'],
            c.operations.map((o) => [
              link(href.operation(o.id), o.name),
              o.provider_display,
              o.usd === null ? '—' : `${usd(o.usd)}${o.unit ? ` / ${o.unit}` : ''}`,
            ]),
            { class: 'ops' },
          ),
        ),
      ),
    ),
    s.hidden_count ? h('p', { class: 'muted' }, `${s.hidden_count} account and utility operations are left off this shelf; search finds them.`) : null,
  );
}
