// A routed capability: who is tried, in which order, at what expected price per hit.
import type { Observed, TriedOrder } from '../../language/dist-types.ts';
import { costPerHitWords, hitRateWords } from '../../language/hit-rate-words.ts';
import { entry, triedOrder } from '../lib/data.ts';
import { h, link, table } from '../lib/dom.ts';
import { micro, ms, pct, usd } from '../lib/format.ts';
import { planChart } from '../lib/plan-chart.ts';
import { href } from '../lib/router.ts';

export async function capabilityPage(name: string): Promise<Node> {
  const e = await entry(`svc.${name}`);
  const routing = e.routing;
  if (!routing) return h('p', {}, `${name} is not routed.`);
  const op = e.endpoint;
  // a plain static host has no planner: the page then says so instead of guessing an order
  const order = await triedOrder(name).catch(() => null);
  return h(
    'article',
    {},
    h('p', { class: 'muted' }, link(`#/platform/${op.platform}`, op.platform_label)),
    h('h1', {}, name, h('span', { class: 'badge' }, 'routed')),
    h('p', {}, op.capability_description),
    h('p', {}, 'Call it as one operation: ', link(href.operation(op.id), op.id), '.'),
    h('h2', {}, 'Measured on this capability'),
    measured(op.observed),
    h('h2', {}, 'The order tried'),
    tried(order),
    h('h2', {}, 'The market, cheapest per hit first'),
    h('p', { class: 'muted' }, 'Every child by its expected price per hit: what the market charges, not the order a call tries them in.'),
    h('h3', {}, 'Price per hit against hit rate'),
    h(
      'figure',
      { id: 'plan-chart' },
      h('div', { class: 'scroll' }, planChart(routing.plan)),
      h(
        'figcaption',
        { class: 'muted' },
        'Numbers are places in the plan. The price per hit is the list price over the measured hit rate once a child has 20 decided calls, its list price before.',
      ),
    ),
    h(
      'div',
      { class: 'scroll' },
      table(
        ['#', 'operation', 'takes', 'price', 'hit rate', 'price per hit', 'status'],
        routing.plan.map((p, i) => [
          String(i + 1),
          link(href.operation(p.endpoint_id), p.endpoint_id),
          p.accepts.map((set) => set.join(' + ')).join(' or '),
          usd(p.usd),
          pct(p.hit_rate),
          usd(p.usd_per_hit),
          p.works ? 'works' : 'not working',
        ]),
        { id: 'market' },
      ),
    ),
    h('h2', {}, 'What comes back'),
    h(
      'div',
      { class: 'scroll' },
      table(
        ['field', 'type', 'notes'],
        Object.entries(routing.contract.output).map(([field, o]) => [
          h('code', {}, field),
          o.type,
          [o.required ? h('strong', { class: 'required' }, 'always ') : null, o.note ?? ''],
        ]),
        { id: 'output' },
      ),
    ),
    h('p', { class: 'muted' }, 'A child missed when ', h('code', {}, routing.contract.miss), '; the next one is tried.'),
    h('h2', {}, 'Options (request headers)'),
    h(
      'div',
      { class: 'scroll' },
      table(
        ['header', 'meaning'],
        Object.entries(routing.headers).map(([name, says]) => [h('code', {}, name), says]),
      ),
    ),
    routing.also.length
      ? [
          h('h2', {}, 'Also doing this, not in the plan'),
          h(
            'ul',
            {},
            routing.also.map((a) => h('li', {}, link(href.operation(a.endpoint_id), a.endpoint_id), ` ${usd(a.usd)}`)),
          ),
        ]
      : null,
  );
}

const KEY = { own: 'your own key', platform: 'platform key' } as const;

/** The children as a call tries them until one hits, and why they come in that order. */
function tried(order: TriedOrder | null): Node {
  if (!order) return h('p', { class: 'muted' }, 'The order tried is planned by the running service; ask it with a dry run (X-Svc-Route-Dry-Run: 1).');
  return h(
    'div',
    {},
    h(
      'p',
      {},
      `Children are tried in this order until one hits, as planned for ${order.planned_for}: own keys first, then children whose misses are free, then the cheapest per hit.`,
    ),
    h(
      'div',
      { class: 'scroll' },
      table(
        ['#', 'operation', 'key', 'bills a miss', 'worst cost'],
        order.order.map((a, i) => [
          String(i + 1),
          link(href.operation(a.endpoint_id), a.endpoint_id),
          KEY[a.key],
          a.bills_miss ? 'yes' : 'no',
          micro(a.worst_cost_micro),
        ]),
        { id: 'plan' },
      ),
    ),
    order.excluded.length
      ? h('p', { class: 'muted' }, `Not tried: ${order.excluded.map((x) => `${x.endpoint_id} (${x.reason.replaceAll('_', ' ')})`).join(', ')}.`)
      : null,
  );
}

/** The capability's own figures: every routed call one sample, whichever child served it. */
function measured(o: Observed | null): Node {
  if (!o?.samples) return h('p', { class: 'muted', id: 'measured' }, 'No routed calls recorded yet.');
  return h(
    'div',
    { class: 'scroll' },
    table(
      ['routed calls', 'hit rate', 'p50', 'p95', 'average cost per hit'],
      [[String(o.samples), hitRateWords(o), ms(o.p50_ms), ms(o.p95_ms), costPerHitWords(o, micro)]],
      { id: 'measured' },
    ),
  );
}
