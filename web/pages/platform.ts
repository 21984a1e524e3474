// One platform shelf, grouped by capability; a routed capability links to its plan. Under a routed
// capability, the operations its routed call tries come first; those that do the same job but are not
// its children (routed_by null) stand apart, as called by pass-through only.
import { shelf } from '../lib/data.ts';
import { h, link, table } from '../lib/dom.ts';
import { usd } from '../lib/format.ts';
import { href } from '../lib/router.ts';
import type { ShelfOperation } from '../../language/shelves.ts';

const opsTable = (ops: ShelfOperation[], cls: string) =>
  h(
    'div',
    { class: 'scroll' },
    table(
      ['operation', 'provider', 'price'],
      ops.map((o) => [link(href.operation(o.id), o.name), o.provider_display, o.usd === null ? '—' : `${usd(o.usd)}${o.unit ? ` / ${o.unit}` : ''}`]),
      { class: cls },
    ),
  );

/** not tried by the capability's routed call: a routed capability's operations its entry does not name as children (a shelf built before routed_by keeps them all in one table) */
const notRouted = (o: ShelfOperation) => o.kind !== 'routed' && o.routed_by === null;

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
        c.routed ? routedGroup(c.capability, c.operations) : opsTable(c.operations, 'ops'),
      ),
    ),
    s.hidden_count ? h('p', { class: 'muted' }, `${s.hidden_count} account and utility operations are left off this shelf; search finds them.`) : null,
  );
}

/** a routed capability's operations: the routed entry and the children its call tries, then the others apart */
function routedGroup(capability: string, operations: ShelfOperation[]): Node[] {
  const others = operations.filter(notRouted);
  const tried = operations.filter((o) => !notRouted(o));
  return [
    opsTable(tried, 'ops routed-children'),
    others.length
      ? h(
          'div',
          { class: 'not-routed' },
          h('h3', {}, 'Not routed: call it by pass-through'),
          h(
            'p',
            { class: 'muted' },
            others.length === 1
              ? `This does the job too, but a call to svc.${capability} never tries it: call it on its own, with the call template on its page.`
              : `These do the job too, but a call to svc.${capability} never tries them: call each on its own, with the call template on its page.`,
          ),
          opsTable(others, 'ops pass-through'),
        )
      : null,
  ].filter((n): n is HTMLDivElement => n !== null);
}
