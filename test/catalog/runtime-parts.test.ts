// The runtime catalog as a server holds it: runtime.json is the catalog's JSON as ever, runtime-at.json
// says where each part lies, and a server parses an operation only when it first reads it, so one
// that routes a capability or passes a call through parses those operations and no other.
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import type { RuntimeCatalog, RuntimeLayout } from '../../language/types.ts';
import { openRuntime } from '../../runtime/catalog/runtime-parts.ts';
import { routedWorld } from '../helpers/routed.ts';
import { FIXTURE_DIST, REAL_DIST } from '../helpers/paths.ts';

const tmp = mkdtempSync(join(tmpdir(), 'svc-runtime-parts-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** the real catalog's runtime.json parsed whole in one piece */
const whole = () => JSON.parse(readFileSync(join(REAL_DIST, 'catalog', 'runtime.json'), 'utf8')) as RuntimeCatalog;
/** the operations a runtime catalog has parsed so far (the others are still read from their bytes on first use) */
const parsed = (runtime: RuntimeCatalog) => Object.keys(runtime.operations).filter((id) => !Object.getOwnPropertyDescriptor(runtime.operations, id)!.get);

it("writes the catalog's JSON whole, with each part's byte range beside it", () => {
  const dir = join(REAL_DIST, 'catalog');
  const bytes = readFileSync(join(dir, 'runtime.json'));
  const parsedWhole = whole();
  expect(bytes.toString('utf8')).toBe(JSON.stringify(parsedWhole));
  const layout = JSON.parse(readFileSync(join(dir, 'runtime-at.json'), 'utf8')) as RuntimeLayout;
  const part = ([start, end]: [number, number]) => JSON.parse(bytes.toString('utf8', start, end));
  expect(part(layout.providers)).toEqual(parsedWhole.providers);
  expect(part(layout.capabilities)).toEqual(parsedWhole.capabilities);
  expect(Object.keys(layout.operations)).toEqual(Object.keys(parsedWhole.operations));
  for (const [id, range] of Object.entries(layout.operations)) expect(part(range), id).toEqual(parsedWhole.operations[id]);
});

it('parses an operation on its first read and keeps it; read whole, it is the catalog parsed at once', () => {
  const runtime = openRuntime(join(REAL_DIST, 'catalog'));
  expect(parsed(runtime)).toEqual([]);
  const [first, second] = Object.keys(runtime.operations);
  const op = runtime.operations[first];
  expect(runtime.operations[first]).toBe(op);
  expect(parsed(runtime)).toEqual([first]);
  expect(Object.hasOwn(runtime.operations, second)).toBe(true);
  expect(parsed(runtime)).toEqual([first]);
  expect({ ...runtime, operations: { ...runtime.operations } }).toEqual(whole());
});

it('opens a catalog built without the byte ranges (an earlier build) whole', () => {
  const dir = join(tmp, 'older', 'catalog');
  cpSync(join(REAL_DIST, 'catalog'), dir, { recursive: true });
  rmSync(join(dir, 'runtime-at.json'));
  const runtime = openRuntime(dir);
  expect(parsed(runtime)).toEqual(Object.keys(runtime.operations));
  expect(runtime).toEqual(whole());
});

it('a server parses the children of the capability it routes, and the operations of the provider it passes a call to, and no other', async () => {
  const w = await routedWorld(FIXTURE_DIST);
  try {
    const runtime = w.ctx.catalog.runtime;
    void w.ctx.router; // made as a start warms it: no operation read yet
    expect(parsed(runtime)).toEqual([]);
    const routed = await w.call('/proxy/people.email.verify', { email: 'jane@acme.com' });
    expect(routed.status).toBe(200);
    const children = runtime.capabilities['people.email.verify'].children;
    expect(parsed(runtime).length).toBeGreaterThan(0);
    for (const id of parsed(runtime)) expect(children).toContain(id);

    const before = new Set(parsed(runtime));
    const passed = await w.call('/proxy/searchco/search', { q: 'coffee' }); // searchco's operations are matched against the path
    expect(passed.status).toBe(200);
    const added = parsed(runtime).filter((id) => !before.has(id));
    expect(added).toContain('searchco.account.usage');
    for (const id of added) expect(runtime.operations[id].provider).toBe('searchco');
    expect(parsed(runtime).filter((id) => id.startsWith('findco.'))).toEqual([]);
  } finally {
    await w.close();
  }
});
