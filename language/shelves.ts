// Shelves: the platform list and, per platform, operations grouped by capability.
import type { CatalogEntry, EndpointOut, PlatformSrc } from './types.ts';

export interface EndpointSummary {
  id: string;
  name: string;
  summary: string;
  provider: string;
  provider_display: string;
  kind: EndpointOut['kind'];
  tier: EndpointOut['tier'];
  method: string;
  path: string;
  usd: number | null;
  cost_type: string | null;
  unit: string | null;
  has_example: boolean;
}

/** an operation as a shelf lists it: its summary, and whether its capability's routed call tries it */
export interface ShelfOperation extends EndpointSummary {
  /**
   * the routed entry (`svc.<capability>`) that tries this operation in its waterfall, else null: an
   * operation that does the job of a routed capability without being one of its children is called by
   * pass-through only (its own call template); the routed entry itself is null too (kind `routed`)
   */
  routed_by: string | null;
}

export interface PlatformRow {
  slug: string;
  label: string;
  description: string;
  operations: number;
  capabilities: number;
  calls_30d: number;
  vendors: string[];
}

export interface ShelfCapability {
  capability: string;
  description: string;
  routed: boolean;
  /** the routed entry first, then its children, then the operations it does not try (routed_by null), each cheapest first */
  operations: ShelfOperation[];
}

export interface Shelf {
  slug: string;
  label: string;
  description: string;
  capabilities: ShelfCapability[];
  hidden_count: number;
  /** the same shelf with utility operations kept */
  all: ShelfCapability[];
}

export const summarize = (e: EndpointOut): EndpointSummary => ({
  id: e.id,
  name: e.name,
  summary: e.summary,
  provider: e.provider,
  provider_display: e.provider_display,
  kind: e.kind,
  tier: e.tier,
  method: e.method,
  path: e.path,
  usd: e.cost?.usd ?? null,
  cost_type: e.cost?.type ?? null,
  unit: e.cost?.unit ?? null,
  has_example: e.has_example,
});

/** where an operation stands in its group: the routed entry, its children, then the rest */
const standing = (e: EndpointOut, routedBy: string | null) => (e.kind === 'routed' ? 0 : routedBy ? 1 : 2);

function group(endpoints: EndpointOut[]): ShelfCapability[] {
  const byCap = new Map<string, EndpointOut[]>();
  for (const e of endpoints) byCap.set(e.capability, [...(byCap.get(e.capability) ?? []), e]);
  return [...byCap.entries()]
    .map(([capability, list]) => {
      // the routed entry names the children its waterfall tries; an operation of the same capability it does not name is not one
      const route = list.find((e) => e.kind === 'routed');
      const children = new Set(route?.routed_children ?? []);
      const routedBy = (e: EndpointOut) => (route && children.has(e.id) ? route.id : null);
      return {
        capability,
        description: route?.capability_description ?? list[0].capability_description,
        routed: route !== undefined,
        operations: list
          .sort(
            (a, b) => standing(a, routedBy(a)) - standing(b, routedBy(b)) || (a.cost?.usd ?? Infinity) - (b.cost?.usd ?? Infinity) || a.id.localeCompare(b.id),
          )
          .map((e) => ({ ...summarize(e), routed_by: routedBy(e) })),
      };
    })
    .sort(byShelfOrder);
}

/** Routed capabilities first, then the fullest, then by name. */
const byShelfOrder = (a: ShelfCapability, b: ShelfCapability) =>
  Number(b.routed) - Number(a.routed) || b.operations.length - a.operations.length || a.capability.localeCompare(b.capability);

/** The default view of a shelf: account and utility operations set aside. The build emits it as a
 * shard of its own; the runtime derives it from the full shelf rather than loading both. */
const isHidden = (o: { kind: string }): boolean => o.kind === 'utility';

export function withoutHidden(all: ShelfCapability[]): ShelfCapability[] {
  return all
    .map((c) => ({ ...c, operations: c.operations.filter((o) => !isHidden(o)) }))
    .filter((c) => c.operations.length > 0)
    .sort(byShelfOrder);
}

/** A shelf's next commands; include_hidden=1 only where it adds operations, and not in the view that has them already. */
export function shelfHints(slug: string, hiddenCount: number, withHidden: boolean): string[] {
  const detail = 'GET /catalog/endpoints/{id} for params, cost, siblings and a call template (svc show ID in a terminal)';
  return hiddenCount && !withHidden
    ? [`GET /catalog/platforms/${slug}?include_hidden=1 adds the ${hiddenCount} account and utility operations`, detail]
    : [detail];
}

export function shelves(entries: CatalogEntry[], platforms: PlatformSrc[]): { platformRows: PlatformRow[]; shelfList: Shelf[] } {
  const shelfList: Shelf[] = [];
  const platformRows: PlatformRow[] = [];
  for (const p of platforms) {
    const onShelf = entries.map((e) => e.endpoint).filter((e) => e.platform === p.slug);
    const all = group(onShelf);
    shelfList.push({
      slug: p.slug,
      label: p.label,
      description: p.description,
      capabilities: withoutHidden(all),
      hidden_count: onShelf.filter(isHidden).length,
      all,
    });
    platformRows.push({
      slug: p.slug,
      label: p.label,
      description: p.description,
      operations: onShelf.length,
      capabilities: new Set(onShelf.map((e) => e.capability)).size,
      calls_30d: 0,
      vendors: [...new Set(onShelf.filter((e) => e.kind !== 'routed').map((e) => e.provider_display))].sort(),
    });
  }
  platformRows.sort((a, b) => b.operations - a.operations || a.slug.localeCompare(b.slug));
  return { platformRows, shelfList };
}
