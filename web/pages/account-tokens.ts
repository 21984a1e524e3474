// The account page's API tokens: listed (never a secret), created with a name and an expiry (the
// secret shown this once), revoked. The section redraws itself, so a new secret stays on screen.
import { createToken, revokeToken, tokens } from '../lib/data.ts';
import type { ListedToken } from '../../language/team-answers.ts';
import { h } from '../lib/dom.ts';

const day = (iso: string | null) => (iso ? iso.replace('T', ' ').slice(0, 16) : 'never');

export function tokensSection(): Node {
  const box = h('div', { id: 'tokens' });
  const error = h('p', { class: 'error', role: 'alert' });
  const fresh = h('div', { id: 'new-token' });
  const fail = (err: unknown) => {
    error.textContent = err instanceof Error ? err.message : String(err);
  };

  const draw = async () => {
    const list = await tokens();
    box.replaceChildren(
      list.length
        ? h(
            'div',
            { class: 'scroll' },
            h(
              'table',
              {},
              h(
                'thead',
                {},
                h(
                  'tr',
                  {},
                  ['name', 'id', 'created', 'expires', 'status', ''].map((c) => h('th', { scope: 'col' }, c)),
                ),
              ),
              h(
                'tbody',
                {},
                list.map((t) => row(t)),
              ),
            ),
          )
        : h('p', { class: 'muted' }, 'No tokens.'),
    );
  };
  const row = (t: ListedToken) =>
    h(
      'tr',
      { 'data-token-id': t.id },
      h('td', {}, t.name ?? h('span', { class: 'muted' }, 'unnamed'), t.current ? h('span', { class: 'muted' }, ' (this session)') : null),
      h('td', {}, h('code', {}, t.id)),
      h('td', {}, day(t.created_at)),
      h('td', {}, day(t.expires_at)),
      h('td', {}, t.status === 'revoked' ? `revoked ${day(t.revoked_at)}` : t.status),
      h(
        'td',
        {},
        t.status === 'active' ? h('button', { type: 'button', 'aria-label': `Revoke ${t.name ?? t.id}`, onclick: () => void revoke(t) }, 'Revoke') : null,
      ),
    );
  const revoke = async (t: ListedToken) => {
    if (!confirm(`Revoke ${t.name ?? t.id}? Calls with it are refused from now on, and sessions opened with it end.`)) return;
    error.textContent = '';
    await revokeToken(t.id).then(draw, fail);
  };

  const name = h('input', { type: 'text', name: 'token-name', placeholder: 'name, e.g. ci deploys', 'aria-label': 'token name', maxlength: 64 });
  const expires = h('input', { type: 'date', name: 'token-expires', 'aria-label': 'expires on (optional)' });
  const create = async (e: Event) => {
    e.preventDefault();
    error.textContent = '';
    const body: { name?: string; expires_at?: string } = {};
    if (name.value.trim()) body.name = name.value.trim();
    if (expires.value) body.expires_at = expires.value;
    await createToken(body).then(async (made) => {
      fresh.replaceChildren(
        h('p', {}, `New token${made.name ? ` “${made.name}”` : ''}: copy it now, it is not shown again.`),
        h('p', {}, h('code', { id: 'new-token-secret' }, made.token)),
      );
      name.value = '';
      expires.value = '';
      await draw();
    }, fail);
  };

  void draw().catch(fail);
  return h(
    'div',
    {},
    box,
    fresh,
    h('form', { class: 'inline', id: 'create-token', onsubmit: (e: Event) => void create(e) }, name, expires, h('button', { type: 'submit' }, 'Create token')),
    h(
      'p',
      { class: 'muted' },
      'A token acts for the whole team. An expiry date ends it at midnight UTC of that day; revoking ends it at once, on every server.',
    ),
    error,
  );
}
