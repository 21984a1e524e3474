// A routed capability: who is tried, in which order, at what expected price per hit.
import { entry } from '../lib/data.ts';
import { h, link, table } from '../lib/dom.ts';
import { pct, usd } from '../lib/format.ts';
import { planChart } from '../lib/plan-chart.ts';
import { href } from '../lib/router.ts';

export async function capabilityPage(name: string): Promise<Node> {
  const e = await entry(`svc.${name}`);
  const routing = e.routing;
  if (!routing) return h('p', {}, `${name} is not routed.`);
  const op = e.endpoint;
  return h('article', {},
    h('p', { class: 'muted' }, link(`#/platform/${op.platform}`, op.platform_label)),
    h('h1', {}, name, h('span', { class: 'badge' }, 'routed')),
    h('p', {}, op.capability_description),
    h('p', {}, 'Call it as one operation: ', link(href.operation(op.id), op.id), '. Children are tried in this order until one hits; own-key and preferred providers go first.'),
    h('h2', {}, 'Price per hit against hit rate'),
    h('figure', { id: 'plan-chart' }, planChart(routing.plan),
      h('figcaption', { class: 'muted' }, 'Numbers are places in the plan. The price per hit is the list price over the measured hit rate once a child has 20 decided calls, its list price before.')),
    h('h2', {}, 'The plan'),
    h('div', { class: 'scroll' }, table(['#', 'operation', 'takes', 'price', 'hit rate', 'price per hit', 'status'], routing.plan.map((p, i) => [
      String(i + 1), link(href.operation(p.endpoint_id), p.endpoint_id), p.accepts.map((set) => set.join(' + ')).join(' or '),
      usd(p.usd), pct(p.hit_rate), usd(p.usd_per_hit), p.works ? 'works' : 'not working',
    ]), { id: 'plan' })),
    h('h2', {}, 'What comes back'),
    h('div', { class: 'scroll' }, table(['field', 'type', 'notes'], Object.entries(routing.contract.output).map(([field, o]) => [
      h('code', {}, field), o.type, [o.required ? h('strong', { class: 'required' }, 'always ') : null, o.note ?? ''],
    ]), { id: 'output' })),
    h('p', { class: 'muted' }, 'A child missed when ', h('code', {}, routing.contract.miss), '; the next one is tried.'),
    h('h2', {}, 'Options (request headers)'),
    h('div', { class: 'scroll' }, table(['header', 'meaning'], Object.entries(routing.headers).map(([name, says]) => [h('code', {}, name), says]))),
    routing.also.length ? [h('h2', {}, 'Also doing this, not in the plan'), h('ul', {}, routing.also.map((a) => h('li', {}, link(href.operation(a.endpoint_id), a.endpoint_id), ` ${usd(a.usd)}`)))] : null);
}
