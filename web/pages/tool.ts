// One hub tool as a store page (#/tool/<id>): what it takes and returns, what a run costs, whether it
// works today and how its runs went, its versions, reviews and maker, and how to call it. Its maker
// may retire it here, after a confirmation that says what retiring means.
import { h, table } from '../lib/dom.ts';
import { micro, usd } from '../lib/format.ts';
import { detailText } from '../lib/data.ts';
import { fieldType, type ToolPage, type ToolSchema } from '../../language/tool-page.ts';

async function answer<T>(res: Response): Promise<T> {
  const body = (await res.json().catch(() => null)) as (T & { detail?: unknown }) | null;
  if (!res.ok) throw new Error(detailText(body, `the tool answered ${res.status}`));
  return body as T;
}

const load = (id: string) => fetch(`hub/tools/${encodeURIComponent(id)}`, { credentials: 'same-origin', cache: 'no-store' }).then((r) => answer<ToolPage>(r));
const retire = (id: string) =>
  fetch(`hub/tools/${encodeURIComponent(id)}`, { method: 'DELETE', credentials: 'same-origin' }).then((r) => answer<ToolPage & { note: string }>(r));

const fields = (s: ToolSchema, id: string) =>
  h(
    'div',
    { class: 'scroll' },
    table(
      ['field', 'type', 'required', 'about'],
      Object.entries(s.properties ?? {}).map(([k, p]) => [
        h('code', {}, k),
        fieldType(p),
        (s.required ?? []).includes(k) ? h('strong', { class: 'required' }, 'required') : 'optional',
        p.description ?? '',
      ]),
      { id },
    ),
  );

export async function toolPage(id: string): Promise<Node> {
  const t = await load(id).catch((e: unknown) => {
    throw new Error(`${e instanceof Error ? e.message : String(e)} Sign in on the Account page to see hub tools.`);
  });
  const maker = t.earnings_micro !== undefined;
  const check = t.last_check;
  return h(
    'article',
    { class: 'tool' },
    h('p', { class: 'muted' }, 'Hub tool by ', h('strong', { id: 'maker' }, `${t.maker.name} (${t.maker.slug})`)),
    h('h1', {}, t.name),
    h('p', {}, h('span', { class: 'badge' }, t.status), ' ', h('code', {}, `${t.tool_id}@${t.version}`), ' ', t.summary),
    t.serving.ok ? null : h('p', { class: 'error', id: 'serving' }, 'This tool cannot be served now: ', t.serving.problems.join(' ')),
    h('h2', {}, 'Cost'),
    h(
      'p',
      { id: 'cost' },
      h('strong', { class: 'big' }, usd(t.price_usd)),
      ' per run, plus its steps: at most ',
      micro(t.worst_step_cost_micro),
      ' (a run costs at most ',
      micro(t.worst_cost_micro),
      ').',
    ),
    h('h2', {}, 'Does it work'),
    h(
      'p',
      { id: 'last-check' },
      check
        ? `Last check ${check.ok ? 'passed' : 'failed'} on ${check.at.slice(0, 10)}, cost ${micro(check.cost_micro)}, ${check.ms} ms.`
        : 'Its check has not run.',
    ),
    h('p', { id: 'usage' }, `Runs: ${t.usage.said}.`),
    h('h2', {}, 'Takes'),
    fields(t.input_schema, 'input-fields'),
    h('h2', {}, 'Returns'),
    fields(t.output_schema, 'output-fields'),
    h('h2', {}, 'Versions'),
    h(
      'div',
      { class: 'scroll' },
      table(
        ['version', 'status', 'published', 'live since', 'note'],
        t.versions.map((v) => [
          `${v.version}${v.version === t.live_version ? ' (serves)' : ''}`,
          v.status,
          v.created_at.slice(0, 10),
          v.live_at?.slice(0, 10) ?? '—',
          v.reason ?? (v.pinnable_until ? `pinnable as @${v.version} until ${v.pinnable_until.slice(0, 10)}` : ''),
        ]),
        { id: 'versions' },
      ),
    ),
    h('h2', {}, 'Reviews'),
    t.reviews
      ? h(
          'p',
          { id: 'reviews' },
          `${t.reviews.teams} team${t.reviews.teams === 1 ? '' : 's'}: `,
          Object.entries(t.reviews.share)
            .map(([k, v]) => `${k.replace('_', ' ')} ${Math.round(v * 100)}%`)
            .join(', '),
        )
      : h('p', { class: 'muted', id: 'reviews' }, 'No review yet.'),
    h('h2', {}, 'Call it'),
    h(
      'div',
      { class: 'template', id: 'call-templates' },
      Object.entries(t.call_templates).map(([k, v]) => [h('p', { class: 'muted' }, k.toUpperCase()), h('pre', {}, v)]),
    ),
    maker && !t.retired_at ? retirePart(t.tool_id) : null,
    t.retired_at ? h('p', { class: 'muted' }, `Retired on ${t.retired_at.slice(0, 10)}.`) : null,
  );
}

/** the maker's retire button, which asks first */
function retirePart(id: string): Node {
  const status = h('p', { role: 'status', id: 'retire-status' });
  const ask = h(
    'div',
    { class: 'confirm', hidden: true, id: 'retire-confirm' },
    h(
      'p',
      {},
      `Retiring ${id} cannot be undone: every version stops taking runs at once and no new version can be published. The id stays your team's; no one else can take it.`,
    ),
    h(
      'button',
      {
        type: 'button',
        id: 'retire-yes',
        onclick: () =>
          void retire(id).then(
            (r) => {
              ask.hidden = true;
              status.textContent = r.note;
            },
            (e: unknown) => {
              status.textContent = e instanceof Error ? e.message : String(e);
            },
          ),
      },
      'Retire for good',
    ),
    ' ',
    h(
      'button',
      {
        type: 'button',
        onclick: () => {
          ask.hidden = true;
        },
      },
      'Keep it',
    ),
  );
  return h(
    'section',
    {},
    h('h2', {}, 'Retire'),
    h(
      'button',
      {
        type: 'button',
        id: 'retire',
        onclick: () => {
          ask.hidden = false;
        },
      },
      'Retire this tool…',
    ),
    ask,
    status,
  );
}
