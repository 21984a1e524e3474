// A minimal dashboard: shelves, and search as you type, over the open catalog API.
interface Platform { slug: string; label: string; operations: number; vendors: string[] }
interface Result { endpoint_id: string; name: string; provider_display: string; usd: number | null }

const el = (tag: string, text: string) => Object.assign(document.createElement(tag), { textContent: text });

async function showPlatforms(): Promise<void> {
  const { platforms } = (await (await fetch('/catalog/platforms')).json()) as { platforms: Platform[] };
  const box = document.querySelector('#platforms')!;
  box.replaceChildren(...platforms.map((p) => el('p', `${p.label}: ${p.operations} operations from ${p.vendors.length} vendors`)));
}

async function search(q: string): Promise<void> {
  const box = document.querySelector('#results')!;
  if (!q.trim()) return void box.replaceChildren();
  const { results } = (await (await fetch(`/catalog/search?q=${encodeURIComponent(q)}&limit=20`)).json()) as { results: Result[] };
  box.replaceChildren(...results.map((r) => el('p', `${r.endpoint_id} — ${r.name} (${r.provider_display}${r.usd === null ? '' : `, $${r.usd}`})`)));
}

document.querySelector<HTMLInputElement>('#q')!.addEventListener('input', (e) => void search((e.target as HTMLInputElement).value));
void showPlatforms();
