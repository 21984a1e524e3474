// The entries read from dist are kept up to a number of bytes, not only a number of entries: the real
// catalog's entries (about 15 MB for 493) do not all stay, the ones read last do.
import { cpSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { ENTRY_CACHE, ENTRY_CACHE_BYTES, loadDist } from '../../runtime/catalog/dist.ts';
import { REAL_DIST } from '../helpers/paths.ts';

const tmp = mkdtempSync(join(tmpdir(), 'svc-entry-cache-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

it('keeps the entries read last within ENTRY_CACHE_BYTES, reading older ones from dist again', () => {
  cpSync(join(REAL_DIST, 'catalog'), join(tmp, 'catalog'), { recursive: true });
  const catalog = loadDist(tmp, 'http://svc.test');
  const ids = readdirSync(join(tmp, 'catalog', 'endpoints')).map((f) => f.slice(0, -'.json'.length));
  expect(ids.length).toBeLessThan(ENTRY_CACHE); // only the byte bound can drop one here
  const read = ids.map((id) => catalog.endpointBytes(id)!);
  expect(read.reduce((sum, b) => sum + b.length, 0)).toBeGreaterThan(ENTRY_CACHE_BYTES);
  const [first, last] = [ids[0], ids.at(-1)!];
  for (const id of [first, last]) writeFileSync(join(tmp, 'catalog', 'endpoints', `${id}.json`), '{"changed":true}');
  expect(catalog.endpointBytes(first)!.toString()).toBe('{"changed":true}'); // it had left: read again
  expect(catalog.endpointBytes(last)).toBe(read.at(-1)); // still kept
});
