// A tiny element builder: enough for a handful of pages, no framework to load first.
type Child = Node | string | number | null | undefined | false | Child[];
type Attrs = Record<string, string | number | boolean | EventListener | null | undefined>;

export function h<K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Attrs = {}, ...children: Child[]): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    if (typeof v === 'function') el.addEventListener(k.replace(/^on/, ''), v);
    else el.setAttribute(k, v === true ? '' : String(v));
  }
  el.append(...flat(children));
  return el;
}

const flat = (children: Child[]): Array<Node | string> =>
  children.flatMap((c) => (Array.isArray(c) ? flat(c) : c === null || c === undefined || c === false ? [] : [typeof c === 'number' ? String(c) : c]));

export const link = (href: string, ...children: Child[]) => h('a', { href }, ...children);

/** A table from a header row and body rows of cells. */
export function table(head: string[], rows: Child[][], attrs: Attrs = {}): HTMLTableElement {
  return h(
    'table',
    attrs,
    h(
      'thead',
      {},
      h(
        'tr',
        {},
        head.map((c) => h('th', { scope: 'col' }, c)),
      ),
    ),
    h(
      'tbody',
      {},
      rows.map((r) =>
        h(
          'tr',
          {},
          r.map((c) => h('td', {}, c)),
        ),
      ),
    ),
  );
}
