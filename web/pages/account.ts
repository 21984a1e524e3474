// Signing in with a team token (the runtime sets the svc_session cookie), then the team's balance,
// API tokens, ledger, own provider keys, its hub tools (and a look-up of any), and the feedback and
// reviews it sent.
import { HttpError, ledger, myTools, removeOwnKey, setOwnKey, signIn, signOut, team, tool } from '../lib/data.ts';
import type { LedgerEntry, TeamAnswer } from '../../language/team-answers.ts';
import { h, link, table } from '../lib/dom.ts';
import { micro, usd } from '../lib/format.ts';
import { reportedWords } from '../../language/ledger-words.ts';
import { href } from '../lib/router.ts';
import { sentSection } from './account-sent.ts';
import { tokensSection } from './account-tokens.ts';

// The cookie is HttpOnly, so the page remembers only that it signed in: asking /teams/me without a
// session would be a needless 401.
const MARK = 'svc.signed_in';

export async function accountPage(rerender: () => void): Promise<Node> {
  if (!localStorage.getItem(MARK)) return signInForm(rerender);
  let ended = 'Your session has ended; sign in again.';
  const me = await team().catch((e: unknown) => {
    // 401: the session or its token ended; 403: the team is disabled (the sentence says so)
    if (e instanceof HttpError && (e.status === 401 || e.status === 403)) {
      if (e.status === 403) ended = e.message;
      return null;
    }
    throw e;
  });
  if (!me) {
    localStorage.removeItem(MARK);
    return signInForm(rerender, ended);
  }
  const out = async () => {
    await signOut();
    localStorage.removeItem(MARK);
    rerender();
  };
  return h(
    'section',
    { class: 'account' },
    h('h1', {}, me.name, ' ', h('span', { class: 'muted' }, `(${me.team})`)),
    h(
      'div',
      { class: 'cards' },
      h('div', { class: 'card' }, h('p', { class: 'muted' }, 'Balance'), h('p', { class: 'big', id: 'balance' }, micro(me.balance_micro))),
      h('div', { class: 'card' }, h('p', { class: 'muted' }, 'Earnings from hub tools'), h('p', { class: 'big' }, micro(me.earnings_micro))),
    ),
    h('h2', {}, 'API tokens'),
    tokensSection(),
    h('h2', {}, 'Own provider keys'),
    ownKeys(me.own_keys, me.own_keys_set_aside ?? [], rerender),
    h('h2', {}, 'Ledger'),
    await ledgerView(),
    h('h2', {}, 'Hub tools'),
    await toolList(),
    toolLookup(),
    h('h2', {}, 'Feedback and reviews you sent'),
    await sentSection(),
    h('p', {}, h('button', { type: 'button', id: 'sign-out', onclick: () => void out() }, 'Sign out')),
  );
}

/** The providers the team brings its own key for (never shown back), with add and remove. */
/** when a stored key is set aside (its provider refused it lately), until when, in the reader's time */
function setAsideNote(provider: string, setAside: TeamAnswer['own_keys_set_aside']): Node | string {
  const until = setAside.find((s) => s.provider === provider)?.until;
  if (!until) return '';
  return h(
    'span',
    { class: 'error set-aside' },
    ` set aside until ${new Date(until).toLocaleTimeString()}: the provider refused it, so calls use the platform key and are charged to the balance; store a working key to end it`,
  );
}

function ownKeys(providers: string[], setAside: TeamAnswer['own_keys_set_aside'], rerender: () => void): Node {
  const error = h('p', { class: 'error', role: 'alert' });
  const act = (run: () => Promise<unknown>) =>
    run().then(rerender, (err: unknown) => {
      error.textContent = err instanceof Error ? err.message : String(err);
    });
  const provider = h('input', { type: 'text', name: 'provider', placeholder: 'provider, e.g. hunter', 'aria-label': 'provider', required: true });
  const key = h('input', { type: 'password', name: 'key', placeholder: 'its API key', 'aria-label': 'API key', autocomplete: 'off', required: true });
  return h(
    'div',
    { id: 'own-keys' },
    providers.length
      ? h(
          'ul',
          {},
          providers.map((p) =>
            h(
              'li',
              {},
              h('code', {}, p),
              setAsideNote(p, setAside),
              ' ',
              h('button', { type: 'button', onclick: () => void act(() => removeOwnKey(p)) }, 'Remove'),
            ),
          ),
        )
      : h('p', { class: 'muted' }, 'None: calls use the platform keys and are charged to the balance.'),
    h(
      'form',
      {
        class: 'inline',
        onsubmit: (e: Event) => {
          e.preventDefault();
          void act(() => setOwnKey(provider.value.trim(), key.value));
        },
      },
      provider,
      key,
      h('button', { type: 'submit' }, 'Add key'),
    ),
    h('p', { class: 'muted' }, 'A call tries the providers you hold a key for first, and their charges do not touch the balance.'),
    error,
  );
}

function signInForm(rerender: () => void, note?: string): Node {
  const input = h('input', { type: 'password', id: 'token', name: 'token', placeholder: 'svc_…', autocomplete: 'off', required: true });
  const error = h('p', { class: 'error', role: 'alert' });
  const submit = async (e: Event) => {
    e.preventDefault();
    try {
      const { team: slug } = await signIn(input.value.trim());
      localStorage.setItem(MARK, slug);
      rerender();
    } catch (err) {
      error.textContent = err instanceof Error ? err.message : String(err);
    }
  };
  return h(
    'section',
    {},
    h('h1', {}, 'Sign in'),
    note ? h('p', {}, note) : null,
    h(
      'form',
      { class: 'inline', id: 'sign-in', onsubmit: (e: Event) => void submit(e) },
      h('label', { for: 'token' }, 'Team token'),
      input,
      h('button', { type: 'submit' }, 'Sign in'),
    ),
    error,
    h(
      'p',
      { class: 'muted' },
      'A token comes from your administrator (svc admin team create) or from npm run demo. It is sent once; the browser keeps only a session cookie.',
    ),
    h('p', {}, link(href.home(), 'Back to the catalog')),
  );
}

async function ledgerView(): Promise<Node> {
  const body = h('tbody');
  const more = h('button', { type: 'button' }, 'Older entries');
  const add = (entries: LedgerEntry[]) =>
    body.append(
      ...entries.map((e) =>
        h(
          'tr',
          {},
          h('td', {}, e.at.replace('T', ' ').slice(0, 19)),
          h('td', {}, e.kind),
          h('td', { class: e.amount_micro < 0 ? 'num neg' : 'num' }, `${e.amount_micro < 0 ? '−' : '+'}${micro(Math.abs(e.amount_micro))}`),
          h('td', { class: 'muted' }, reportedWords(e, micro) ?? ''),
          h('td', {}, e.endpoint_id ? link(href.operation(e.endpoint_id), e.endpoint_id) : (e.tool_id ?? '')),
          h('td', { class: 'muted' }, e.call_id ?? ''),
        ),
      ),
    );
  let cursor: string | null = null;
  const page = async () => {
    const r = await ledger(cursor);
    add(r.entries);
    cursor = r.next_cursor;
    more.hidden = !cursor;
    return r.entries.length;
  };
  more.addEventListener('click', () => void page());
  const first = await page();
  if (!first) return h('p', { class: 'muted' }, 'No entries yet.');
  return h(
    'div',
    { class: 'scroll' },
    h(
      'table',
      { id: 'ledger' },
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          ['when', 'kind', 'amount', 'reported / list', 'what', 'call'].map((c) => h('th', { class: c === 'amount' ? 'num' : null }, c)),
        ),
      ),
      body,
    ),
    more,
  );
}

function toolLookup(): Node {
  const input = h('input', { type: 'text', placeholder: 'tool id, e.g. email-check', 'aria-label': 'tool id' });
  const out = h('div');
  const look = async (e: Event) => {
    e.preventDefault();
    const id = input.value.trim();
    if (!id) return;
    out.replaceChildren(
      await tool(id).then(
        (t) =>
          table(
            ['tool', 'status', 'version', 'price per run', 'runs', 'earned'],
            [
              [
                `${t.name} (${t.tool_id})`,
                t.status,
                `${t.version}${t.live_version ? `, live ${t.live_version}` : ''}`,
                usd(t.price_usd),
                t.runs === undefined ? '—' : String(t.runs),
                t.earnings_micro === undefined ? '—' : micro(t.earnings_micro),
              ],
            ],
          ),
        (err: unknown) => h('p', { class: 'error' }, err instanceof Error ? err.message : String(err)),
      ),
    );
  };
  return h(
    'div',
    {},
    h('p', { class: 'muted' }, 'Look up any tool by its id. Publish with svc hub publish DIR.'),
    h('form', { class: 'inline', onsubmit: (e: Event) => void look(e) }, input, h('button', { type: 'submit' }, 'Look up')),
    out,
  );
}

/** The team's own tools: each one's versions, why its newest check failed, its runs and earnings. */
async function toolList(): Promise<Node> {
  const rows = await myTools();
  if (!rows.length) return h('p', { class: 'muted' }, 'Your team has published no hub tools yet.');
  // the list has no runs or earnings: each tool's own view has them, with every version
  const views = await Promise.all(rows.map((r) => tool(r.tool_id).catch(() => null)));
  return h(
    'div',
    { class: 'scroll' },
    table(
      ['tool', 'id', 'status', 'versions', 'check', 'runs', 'earned'],
      rows.map((r, i) => {
        const v = views[i];
        return [
          r.name,
          h('code', {}, r.tool_id),
          r.status,
          `${v ? v.versions.map((x) => `${x.version} ${x.status}`).join(', ') : r.version}${r.live_version ? ` (live ${r.live_version})` : ''}`,
          r.reason ?? (r.status === 'live' ? 'passed' : '—'),
          v?.runs === undefined ? '—' : String(v.runs),
          v?.earnings_micro === undefined ? '—' : micro(v.earnings_micro),
        ];
      }),
      { id: 'my-tools' },
    ),
  );
}
