// Hash routes, so every page has a URL any static host serves: #/op/<id>, #/capability/<name>, …
export interface Route {
  path: string[];
  query: URLSearchParams;
}

export function currentRoute(): Route {
  const [path, query = ''] = location.hash.replace(/^#\/?/, '').split('?');
  return { path: path.split('/').filter(Boolean).map(decodeURIComponent), query: new URLSearchParams(query) };
}

export const href = {
  home: () => '#/',
  search: (q: string) => `#/search?q=${encodeURIComponent(q)}`,
  platform: (slug: string) => `#/platform/${encodeURIComponent(slug)}`,
  operation: (id: string) => `#/op/${encodeURIComponent(id)}`,
  capability: (name: string) => `#/capability/${encodeURIComponent(name)}`,
  account: () => '#/account',
  tool: (id: string) => `#/tool/${encodeURIComponent(id)}`,
};
