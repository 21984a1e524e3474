// One operation: what to send, what it costs and why we think so, how to call it, what comes back,
// how it has done, and the operations that do the same job beside it.
import type { CatalogEntry, CostOut, EndpointOut, Observed, ReviewSummary } from '../../language/dist-types.ts';
import type { EvidenceSrc, ParamSrc } from '../../language/source-types.ts';
import { priceTrust } from '../../language/price-words.ts';
import { costPerHitWords, hitRateWords, measuredHitRate, MIN_DECIDED_SAMPLES } from '../../language/hit-rate-words.ts';
import { entry } from '../lib/data.ts';
import { h, link, table } from '../lib/dom.ts';
import { micro, ms, pct, usd } from '../lib/format.ts';
import { href } from '../lib/router.ts';

export async function operationPage(id: string, proxyUrl: string | null): Promise<Node> {
  const e = await entry(id);
  const op = e.endpoint;
  return h(
    'article',
    { class: 'operation' },
    h(
      'p',
      { class: 'muted' },
      link(`#/platform/${op.platform}`, op.platform_label),
      ' › ',
      op.kind === 'routed' ? link(href.capability(op.capability), op.capability) : op.capability,
    ),
    h('h1', {}, op.name),
    h(
      'p',
      {},
      h('span', { class: 'badge' }, op.kind === 'routed' ? 'routed' : op.provider_display),
      ' ',
      h('code', {}, `${op.method} ${op.path}`),
      ' ',
      op.summary,
    ),
    op.kind === 'routed' ? h('p', {}, 'Several providers serve this; see ', link(href.capability(op.capability), 'the routing plan and its chart'), '.') : null,
    h('h2', {}, 'Parameters'),
    parameters(op),
    h('h2', {}, 'Cost'),
    cost(op.cost),
    h('h2', {}, 'Call it'),
    callTemplate(e, proxyUrl),
    h('h2', {}, 'Example response'),
    h('pre', { class: 'example' }, JSON.stringify(e.example_response, null, 2) ?? 'no example'),
    h('h2', {}, 'Observed'),
    observed(op.observed),
    h('h2', {}, 'Reviews'),
    reviews(op.reviews),
    h('h2', {}, 'Siblings'),
    siblings(op, e.siblings),
    e.related_capabilities.length
      ? [
          h('h2', {}, 'Related'),
          h(
            'ul',
            {},
            e.related_capabilities.map((r) => h('li', {}, link(href.operation(r.endpoint_id), r.capability), ` — ${r.does}`)),
          ),
        ]
      : null,
    op.docs_url ? h('p', {}, link(op.docs_url, 'Provider documentation')) : null,
  );
}

function parameters(op: EndpointOut): Node {
  const groups: Array<[string, Record<string, ParamSrc> | undefined]> = [
    ['path', op.input.pathParams],
    ['query', op.input.queryParams],
    ['body', op.input.body],
  ];
  const sets = op.input.identity_sets ?? [];
  const rows = groups.flatMap(([where, params]) =>
    Object.entries(params ?? {}).map(([name, p]) => [
      h('code', {}, name),
      where,
      p.type,
      p.required
        ? h('strong', { class: 'required' }, 'required')
        : sets.some((s) => s.includes(name))
          ? h('strong', { class: 'required' }, 'in a required set')
          : 'optional',
      [p.note ?? '', p.example === undefined ? '' : ` e.g. ${JSON.stringify(p.example)}`].join(''),
    ]),
  );
  return h(
    'div',
    {},
    rows.length ? h('div', { class: 'scroll' }, table(['name', 'in', 'type', 'required', 'notes'], rows, { class: 'params' })) : h('p', {}, 'No parameters.'),
    sets.length
      ? h('p', { class: 'identity-sets' }, h('strong', {}, 'One of these sets is required: '), sets.map((s) => `{${s.join(', ')}}`).join(' or '), '.')
      : null,
    op.input.note ? h('p', { class: 'muted' }, op.input.note) : null,
  );
}

function cost(c: CostOut | null): Node {
  if (!c) return h('p', {}, 'No price recorded.');
  const native = c.currency === 'USD' ? '' : ` (${c.value} ${c.currency} per ${c.per === 1 ? '' : `${c.per} `}${c.unit})`;
  return h(
    'div',
    { class: 'cost' },
    h('p', {}, h('strong', { class: 'big' }, usd(c.usd)), ` per ${c.unit}, billed ${c.type.replace('_', ' ')}${native}`),
    h('p', { class: 'muted' }, 'Price: ', h('strong', { class: 'trust' }, priceTrust(c)), c.note ? `. ${c.note}` : ''),
    c.evidence ? evidence('Stated', c.evidence) : null,
    c.usd_evidence ? evidence('Dollar rate stated', c.usd_evidence) : null,
    ...c.conflict.map((e) => evidence('Stated otherwise (the dearer reading is billed)', e)),
    c.assumed ? h('p', { class: 'muted' }, `Assumed: ${c.assumed}`) : null,
  );
}

/** The words a figure rests on, where they are and the day they were read. */
function evidence(label: string, e: EvidenceSrc): Node {
  return h('p', { class: 'muted evidence' }, `${label}${e.by ? ` by ${e.by}` : ''}: “${e.quote}” (`, link(e.url, new URL(e.url).host), `, read ${e.read})`);
}

function callTemplate(e: CatalogEntry, proxyUrl: string | null): Node {
  const text = proxyUrl ? e.call_template.replaceAll('{{proxy_url}}', proxyUrl) : e.call_template;
  const status = h('span', { class: 'muted', role: 'status' });
  const copy = async () => {
    await navigator.clipboard.writeText(text).then(
      () => {
        status.textContent = 'Copied.';
      },
      () => {
        status.textContent = 'Select the text and copy it.';
      },
    );
  };
  return h(
    'div',
    { class: 'template' },
    h('pre', { id: 'call-template' }, text),
    h('button', { type: 'button', id: 'copy', onclick: () => void copy() }, 'Copy'),
    ' ',
    status,
    h('p', { class: 'muted' }, 'Set SVC_TOKEN to your team token first (Account shows your team).'),
  );
}

function observed(o: Observed | null): Node {
  if (!o || !o.samples) return h('p', { class: 'muted' }, 'Not measured yet: no calls recorded.');
  // a routed entry's samples also say what its callers paid
  const paid = o.paid ? costPerHitWords(o, micro) : null;
  return h(
    'div',
    { class: 'scroll' },
    table(
      ['calls', 'hit rate', 'success', 'p50', 'p95', 'last success', ...(paid ? ['average cost per hit'] : [])],
      [
        [
          String(o.samples),
          hitRateWords(o),
          o.samples < MIN_DECIDED_SAMPLES ? `${Math.round((o.ok_rate ?? 0) * o.samples)} of ${o.samples}` : pct(o.ok_rate),
          ms(o.p50_ms),
          ms(o.p95_ms),
          o.last_ok_days === null ? '—' : o.last_ok_days === 0 ? 'today' : `${o.last_ok_days} days ago`,
          ...(paid ? [paid] : []),
        ],
      ],
      { id: 'observed' },
    ),
  );
}

const reviewShare = (r: ReviewSummary | undefined) =>
  !r || !r.teams || !r.share ? 'none' : `${pct(r.share.useful)} useful (${r.teams} team${r.teams === 1 ? '' : 's'})`;

function reviews(r: ReviewSummary | undefined): Node {
  if (!r || !r.teams) return h('p', { class: 'muted' }, 'No reviews yet.');
  return h(
    'div',
    {},
    h(
      'p',
      {},
      `${r.teams} team${r.teams === 1 ? '' : 's'}: `,
      r.share ? `${pct(r.share.useful)} useful, ${pct(r.share.partly)} partly, ${pct(r.share.not_useful)} not useful` : '',
    ),
    h(
      'ul',
      {},
      r.samples.map((s) =>
        h(
          'li',
          {},
          h('strong', {}, s.usefulness.replace('_', ' ')),
          ` — ${s.reason} `,
          h('span', { class: 'muted' }, `(${s.month}${s.client ? `, ${s.client}` : ''})`),
        ),
      ),
    ),
  );
}

/** Expected price of one hit: the list price over the measured hit rate (enough calls decided), the list price until then; none when nothing hit. */
export const pricePerHit = (usdPrice: number | null, hitRate: number | null | undefined): string =>
  usdPrice === null ? usd(null) : hitRate === 0 ? 'no hits yet' : usd(hitRate ? usdPrice / hitRate : usdPrice);

function siblings(op: EndpointOut, sibs: EndpointOut[]): Node {
  if (!sibs.length) return h('p', { class: 'muted' }, 'No other operation does this job.');
  // a provider with several operations here is told apart by each one's name
  const all = [op, ...sibs];
  const label = (s: EndpointOut) => (all.filter((x) => x.provider === s.provider).length > 1 ? `${s.provider_display}: ${s.name}` : s.provider_display);
  const row = (s: EndpointOut, self: boolean) => [
    self ? h('strong', {}, `${label(s)} (this one)`) : link(href.operation(s.id), label(s)),
    pricePerHit(s.cost?.usd ?? null, measuredHitRate(s.observed)),
    hitRateWords(s.observed),
    s.observed?.samples ? `${ms(s.observed.p50_ms)} / ${ms(s.observed.p95_ms)}` : '—',
    reviewShare(s.reviews),
  ];
  return h(
    'div',
    { class: 'scroll' },
    table(['operation', 'price per hit', 'hit rate', 'p50 / p95', 'reviews'], [row(op, true), ...sibs.map((s) => row(s, false))], { id: 'siblings' }),
  );
}
