// The deploy banner: /meta's app_version is polled while the tab is open; once it differs from the
// one this page loaded with, a banner offers a reload.
import { meta, type Meta } from './data.ts';
import { h } from './dom.ts';

export function watchVersion(first: Meta, everyMs: number): void {
  const check = async () => {
    const now = await meta().catch(() => null);
    if (now && now.app_version !== first.app_version) return show();
    setTimeout(() => void check(), everyMs);
  };
  setTimeout(() => void check(), everyMs);
}

function show(): void {
  const bar = h(
    'div',
    { id: 'deploy-banner', role: 'status' },
    'A new version is deployed — ',
    h('button', { type: 'button', onclick: () => location.reload() }, 'reload'),
  );
  document.body.prepend(bar);
}
