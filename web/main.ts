// The dashboard: hash routes over the static catalog, search in the browser, a watch on the deployed version.
import { meta, type Meta } from './lib/data.ts';
import { h } from './lib/dom.ts';
import { currentRoute, href } from './lib/router.ts';
import { loadSearch } from './lib/search.ts';
import { watchVersion } from './lib/version-watch.ts';
import { homePage } from './pages/home.ts';
import { searchPage, resultKeys } from './pages/search.ts';
import { platformPage } from './pages/platform.ts';
import { operationPage } from './pages/operation.ts';
import { capabilityPage } from './pages/capability.ts';
import { accountPage } from './pages/account.ts';
import { toolPage } from './pages/tool.ts';

const VERSION_POLL_MS = 30_000;
const view = document.querySelector<HTMLElement>('#view')!;
const box = document.querySelector<HTMLInputElement>('#q')!;
// null on a static host without /meta: call templates then keep their {{proxy_url}} placeholder
const info: Promise<Meta | null> = meta().catch(() => null);
let renders = 0;

async function page(): Promise<Node> {
  const {
    path: [name = '', arg = ''],
    query,
  } = currentRoute();
  switch (name) {
    case '':
      return homePage();
    case 'search':
      return query.get('q')?.trim() ? searchPage(query.get('q')!) : homePage();
    case 'platform':
      return platformPage(arg);
    case 'op':
      return operationPage(arg, (await info)?.proxy_url ?? null);
    case 'capability':
      return capabilityPage(arg);
    case 'account':
      return accountPage(() => void render());
    case 'tool':
      return toolPage(arg);
    default:
      return h('p', {}, 'No such page. ', h('a', { href: href.home() }, 'Back to the catalog'), '.');
  }
}

async function render(): Promise<void> {
  const mine = ++renders; // a slower earlier render must not overwrite a newer one
  const { path, query } = currentRoute();
  if (path[0] !== 'search') box.value = '';
  else if (document.activeElement !== box) box.value = query.get('q') ?? '';
  const node = await page().catch((e: unknown) => h('p', { class: 'error' }, e instanceof Error ? e.message : String(e)));
  if (mine !== renders) return;
  view.replaceChildren(node);
  if (path[0] !== 'search') window.scrollTo(0, 0);
}

box.addEventListener('input', () => {
  const q = box.value;
  // One history entry per search, not per keystroke.
  const onSearch = currentRoute().path[0] === 'search';
  history[onSearch ? 'replaceState' : 'pushState'](null, '', q.trim() ? href.search(q) : href.home());
  void render();
});
box.addEventListener('keydown', resultKeys);
box.addEventListener('focus', () => void loadSearch(), { once: true });
document.addEventListener('keydown', (e) => {
  if (e.key === '/' && document.activeElement?.tagName !== 'INPUT') {
    e.preventDefault();
    box.focus();
  }
});
addEventListener('hashchange', () => void render());

void render();
void info.then((m) => {
  if (!m) return;
  document.querySelector('#footer')!.textContent =
    `svc ${m.svc_version} · catalog ${m.catalog.hash} built ${m.catalog.built_at.slice(0, 10)} · ${m.catalog.operations} operations from ${m.catalog.providers} providers · calls go to ${m.proxy_url}`;
  watchVersion(m, VERSION_POLL_MS);
});
// The index is fetched once the first view is up, so the first keystroke rarely waits.
requestIdleCallback(() => void loadSearch());
