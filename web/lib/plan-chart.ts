// The plan as a picture: price per hit (up) against hit rate (across), one numbered dot per child in
// waterfall order. Children not measured yet sit in a grey band on the right at their list price,
// spread across it in plan order; dots that would cover one another are moved apart (chart-spread.ts)
// so every number stays readable, however many children and however close their figures.
import type { PlanRow } from '../../language/dist-types.ts';
import { spread, type Spot } from './chart-spread.ts';
import { usd } from './format.ts';

const NS = 'http://www.w3.org/2000/svg';
const W = 780,
  H = 320,
  L = 64,
  T = 16,
  B = 40,
  GAP = 24,
  DOT = 8;
/** the least room between two price labels on the side (about the height of their text) */
const LABEL_ROOM = 14;

function svg<K extends keyof SVGElementTagNameMap>(tag: K, attrs: Record<string, string | number>, text?: string): SVGElementTagNameMap[K] {
  const el = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  if (text !== undefined) el.textContent = text;
  return el;
}

export function planChart(plan: PlanRow[]): SVGSVGElement {
  const root = svg('svg', { viewBox: `0 0 ${W} ${H}`, class: 'chart', role: 'img', 'aria-label': 'price per hit against hit rate' });
  type Dot = PlanRow & { n: number; usd_per_hit: number };
  const priced = plan.map((p, i) => ({ ...p, n: i + 1 })).filter((p): p is Dot => p.usd_per_hit !== null);
  const values = priced.map((p) => p.usd_per_hit).filter((v) => v > 0);
  // A log scale with a little room above and below: prices within one capability span orders of magnitude.
  const lo = values.length ? Math.min(...values) / 1.5 : 0.0001;
  const hi = values.length ? Math.max(Math.max(...values) * 1.5, lo * 10) : 0.01;
  const y = (v: number) => T + (H - T - B) * (1 - (Math.log10(Math.max(v, lo)) - Math.log10(lo)) / (Math.log10(hi) - Math.log10(lo) || 1));
  const resting = priced.filter((p) => p.hit_rate === null);
  // The band of the unmeasured takes room by how many sit in it: most of the width on a fresh start.
  const R = resting.length === 0 ? 8 : resting.length === priced.length ? 0.7 * (W - L) : 0.4 * (W - L);
  const plotW = W - L - R;
  const x = (rate: number) => L + plotW * rate;

  for (const t of [0, 0.25, 0.5, 0.75, 1]) {
    root.append(svg('line', { x1: x(t), x2: x(t), y1: T, y2: H - B, class: 'grid' }));
    root.append(svg('text', { x: x(t), y: H - B + 16, 'text-anchor': 'middle' }, `${t * 100}%`));
  }
  // over many decades the prices' labels would crowd: one is left out where it would touch the last
  let lastLabel = Infinity;
  for (let e = Math.floor(Math.log10(lo)); e <= Math.ceil(Math.log10(hi)); e++) {
    for (const v of [10 ** e, 3 * 10 ** e]) {
      if (v < lo || v > hi || lastLabel - y(v) < LABEL_ROOM) continue;
      lastLabel = y(v);
      root.append(svg('line', { x1: L, x2: W - R, y1: y(v), y2: y(v), class: 'grid' }));
      root.append(svg('text', { x: L - 6, y: y(v) + 4, 'text-anchor': 'end' }, usd(v)));
    }
  }
  root.append(svg('text', { x: L + plotW / 2, y: H - 6, 'text-anchor': 'middle' }, 'hit rate'));
  root.append(svg('text', { x: 12, y: T + (H - T - B) / 2, transform: `rotate(-90 12 ${T + (H - T - B) / 2})`, 'text-anchor': 'middle' }, 'price per hit'));
  const band = { x: W - R + GAP, width: R - GAP - 4 };
  if (resting.length) {
    root.append(svg('rect', { x: band.x, y: T, width: band.width, height: H - T - B, class: 'unmeasured' }));
    root.append(svg('text', { x: band.x + band.width / 2, y: H - B + 16, 'text-anchor': 'middle' }, 'not measured yet'));
  }
  const restX = (p: Dot) => band.x + 12 + ((band.width - 24) * (resting.indexOf(p) + 0.5)) / resting.length;

  // measured dots stay over the rate axis, unmeasured ones in their band
  const measured = priced.filter((p) => p.hit_rate !== null);
  const spots = new Map<Dot, Spot>();
  spread(
    measured.map((p) => ({ x: x(p.hit_rate!), y: y(p.usd_per_hit) })),
    DOT,
    1,
    { left: L, right: W - R, top: T, bottom: H - B },
  ).forEach((s, i) => spots.set(measured[i], s));
  spread(
    resting.map((p) => ({ x: restX(p), y: y(p.usd_per_hit) })),
    DOT,
    1,
    { left: band.x, right: band.x + band.width, top: T, bottom: H - B },
  ).forEach((s, i) => spots.set(resting[i], s));
  for (const p of priced) {
    const { x: cx, y: cy } = spots.get(p)!;
    const g = svg('g', { class: p.works ? 'dot' : 'dot broken' });
    g.append(svg('title', {}, `${p.n}. ${p.endpoint_id}: ${usd(p.usd_per_hit)} per hit${p.hit_rate === null ? ' (list price, not measured)' : ''}`));
    g.append(svg('circle', { cx, cy, r: DOT }));
    g.append(svg('text', { x: cx, y: cy + 4, 'text-anchor': 'middle' }, String(p.n)));
    root.append(g);
  }
  return root;
}
