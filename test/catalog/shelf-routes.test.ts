// A shelf's routed capability, over HTTP against the real catalog: the operations its routed call
// tries (the routed entry's children) are told apart from those that do the same job but are not
// children (People's people.email.find holds some), which are called by pass-through only. Every
// operation names the routed entry that tries it (`routed_by`), null when none does; the routed
// entry comes first, then its children, then the rest. Nothing was taken out of the shelf's JSON.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CatalogEntry } from '../../language/types.ts';
import type { ShelfCapability } from '../../language/shelves.ts';
import { REAL_DIST } from '../helpers/paths.ts';
import { servedRuntime } from '../helpers/server.ts';

let svc: Awaited<ReturnType<typeof servedRuntime>>;
beforeAll(async () => {
  svc = await servedRuntime(REAL_DIST);
});
afterAll(() => svc.close());

const json = async <T>(path: string): Promise<T> => {
  const r = await svc.fetch(path);
  expect(r.status).toBe(200);
  return (await r.json()) as T;
};
type ShelfAnswer = { slug: string; capabilities: ShelfCapability[] };
const shelfViews = async () => {
  const { platforms } = await json<{ platforms: Array<{ slug: string }> }>('/catalog/platforms');
  const views: Array<{ view: string; shelf: ShelfAnswer }> = [];
  for (const { slug } of platforms)
    for (const view of [`/catalog/platforms/${slug}`, `/catalog/platforms/${slug}?include_hidden=1`])
      views.push({ view, shelf: await json<ShelfAnswer>(view) });
  return views;
};

describe('GET /catalog/platforms/{slug}: routed capabilities', () => {
  it("marks each operation with the routed entry that tries it, exactly the entry's children, on every shelf and in both views", async () => {
    let notRouted = 0;
    for (const { view, shelf } of await shelfViews()) {
      for (const group of shelf.capabilities) {
        const ops = group.operations;
        if (!group.routed) {
          expect(
            ops.map((o) => o.routed_by),
            `${view} ${group.capability}`,
          ).toEqual(ops.map(() => null));
          continue;
        }
        const routedId = `svc.${group.capability}`;
        const entry = await json<CatalogEntry>(`/catalog/endpoints/${routedId}`);
        const children = new Set(entry.endpoint.routed_children);
        expect(ops[0]).toMatchObject({ id: routedId, kind: 'routed', routed_by: null });
        const tried = ops.filter((o) => o.routed_by === routedId).map((o) => o.id);
        const others = ops.filter((o) => o.kind !== 'routed' && o.routed_by === null).map((o) => o.id);
        expect(tried.length + others.length + 1, `${view} ${group.capability}: every operation is a child or not`).toBe(ops.length);
        expect(tried.every((id) => children.has(id))).toBe(true);
        expect(
          others.filter((id) => children.has(id)),
          `${view} ${group.capability}: children marked as not routed`,
        ).toEqual([]);
        // the entry's own list of what does this job outside its plan is what the shelf shows apart
        expect(others.every((id) => entry.routing!.also.some((a) => a.endpoint_id === id))).toBe(true);
        // the routed entry, its children, then the rest
        expect(ops.map((o) => o.id)).toEqual([routedId, ...tried, ...others]);
        notRouted += others.length;
      }
    }
    expect(notRouted, 'the real catalog has operations beside a routed capability that are not its children').toBeGreaterThan(0);
  });

  it('on the People shelf, people.email.find shows apart the operations its routed call never tries', async () => {
    const { capabilities } = await json<ShelfAnswer>('/catalog/platforms/people');
    const group = capabilities.find((c) => c.capability === 'people.email.find')!;
    const entry = await json<CatalogEntry>('/catalog/endpoints/svc.people.email.find');
    const children = new Set(entry.endpoint.routed_children);
    const others = group.operations.filter((o) => o.kind !== 'routed' && !children.has(o.id));
    expect(others.length).toBeGreaterThan(0);
    for (const o of others) expect(o.routed_by).toBeNull();
    // still on the shelf, with every field a shelf row had before
    expect(Object.keys(others[0])).toEqual(expect.arrayContaining(['id', 'name', 'summary', 'provider', 'kind', 'usd', 'unit', 'has_example']));
    expect(group.operations.filter((o) => children.has(o.id)).every((o) => o.routed_by === 'svc.people.email.find')).toBe(true);
  });
});
