// Everything the dashboard reads: the static catalog files the build writes (any static host serves
// them) and /meta. Paths are relative, so the dashboard works under any base path.
import type { CapabilityDoc, CatalogEntry, SearchRow, TriedOrder } from '../../language/dist-types.ts';
import type { SearchIndexDump } from '../../language/search-index.ts';
import type { LedgerEntry, ListedToken, Paged, SentFeedback, SentReview, TeamAnswer, TokenView } from '../../language/team-answers.ts';
import type { ToolPage } from '../../language/tool-page.ts';
import type { PlatformRow, Shelf as BuiltShelf } from '../../language/shelves.ts';

export interface Meta {
  proxy_url: string;
  svc_version: string;
  app_version: string;
  catalog: { hash: string; built_at: string; operations: number; providers: number };
}

/** platforms/<slug>.json: the shelf without its hidden operations (those are in <slug>.all.json) */
export type Shelf = Omit<BuiltShelf, 'all'>;

export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** svc's reason in an error answer: its sentence, or a 422's list of them (each `msg`), else `fallback` */
export function detailText(body: { detail?: unknown } | null, fallback: string): string {
  const detail = body?.detail;
  if (typeof detail === 'string') return detail;
  const said = Array.isArray(detail) ? detail.map((d: { msg?: unknown }) => d?.msg).filter((m): m is string => typeof m === 'string') : [];
  return said.length ? said.join(' ') : fallback;
}

async function getJson<T>(url: string, init?: RequestInit): Promise<T> {
  const res = await fetch(url, { credentials: 'same-origin', ...init });
  if (!res.ok) {
    const body = (await res.json().catch(() => null)) as { detail?: unknown } | null;
    throw new HttpError(res.status, detailText(body, `${url} answered ${res.status}`));
  }
  return (await res.json()) as T;
}

// Catalog files never change under a running page (a new build is a new app_version), so each is read once.
const once = new Map<string, Promise<unknown>>();
function cached<T>(url: string, load: () => Promise<T> = () => getJson<T>(url)): Promise<T> {
  if (!once.has(url))
    once.set(
      url,
      load().catch((e: unknown) => {
        once.delete(url);
        throw e;
      }),
    );
  return once.get(url) as Promise<T>;
}

export const meta = (): Promise<Meta> => getJson<Meta>('meta', { cache: 'no-store' });
export const platforms = () => cached<{ platforms: PlatformRow[] }>('catalog/platforms.json').then((r) => r.platforms);
export const shelf = (slug: string) => cached<Shelf>(`catalog/platforms/${encodeURIComponent(slug)}.json`);
export const searchFiles = () =>
  Promise.all([
    cached<SearchRow[]>('catalog/search/rows.json'),
    cached<SearchIndexDump>('catalog/search/index.json'),
    cached<CapabilityDoc[]>('catalog/search/capabilities.json'),
  ]);

/**
 * One operation's entry. The runtime answers the live entry (observed figures and reviews filled in
 * from its state) at the path without `.json`; a plain static host has only the built shard.
 */
export const entry = (id: string) => {
  const path = `catalog/endpoints/${encodeURIComponent(id)}`;
  return cached<CatalogEntry>(path, () => getJson<CatalogEntry>(path).catch(() => getJson<CatalogEntry>(`${path}.json`)));
};

/** the order a routed capability's children are tried in, for the signed-in team when there is one (the running service only) */
export const triedOrder = (capability: string) => getJson<TriedOrder>(`catalog/capabilities/${encodeURIComponent(capability)}/plan`, { cache: 'no-store' });

// The signed-in team (the svc_session cookie, set and cleared by the runtime).
const json = (method: string, body: unknown): RequestInit => ({ method, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

export const signIn = (token: string) => getJson<{ team: string }>('auth/session', json('POST', { token }));
export const signOut = () => fetch('auth/session', { method: 'DELETE', credentials: 'same-origin' });
export const team = () => getJson<TeamAnswer>('teams/me', { cache: 'no-store' });
export const ledger = (cursor: string | null) =>
  getJson<Paged<'entries', LedgerEntry>>(`teams/me/ledger${cursor ? `?cursor=${encodeURIComponent(cursor)}` : ''}`, {
    cache: 'no-store',
  });
export const setOwnKey = (provider: string, key: string) =>
  getJson<{ provider: string }>(`teams/me/keys/${encodeURIComponent(provider)}`, json('POST', { key }));
export const removeOwnKey = (provider: string) => getJson<{ provider: string }>(`teams/me/keys/${encodeURIComponent(provider)}`, { method: 'DELETE' });
/** GET /hub/tools?mine=1: every tool the team made, at its newest version, with its status and, when its check failed, why */
export interface MyToolRow {
  tool_id: string;
  name: string;
  price_usd: number;
  version: number;
  status: string;
  reason?: string;
  live_version: number | null;
}
export const myTools = () => getJson<{ tools: MyToolRow[] }>('hub/tools?mine=1', { cache: 'no-store' }).then((r) => r.tools);
export const tool = (id: string) => getJson<ToolPage>(`hub/tools/${encodeURIComponent(id)}`, { cache: 'no-store' });
export const tokens = () => getJson<{ tokens: ListedToken[] }>('teams/me/tokens', { cache: 'no-store' }).then((r) => r.tokens);
export const createToken = (body: { name?: string; expires_at?: string }) => getJson<TokenView & { token: string }>('teams/me/tokens', json('POST', body));
export const revokeToken = (id: string) => getJson<TokenView>(`teams/me/tokens/${encodeURIComponent(id)}`, { method: 'DELETE' });
const sent =
  <K extends string, T>(what: K) =>
  (cursor: string | null) =>
    getJson<Paged<K, T>>(`teams/me/${what}${cursor ? `?cursor=${encodeURIComponent(cursor)}` : ''}`, { cache: 'no-store' });
export const sentFeedback = sent<'feedback', SentFeedback>('feedback');
export const sentReviews = sent<'reviews', SentReview>('reviews');
