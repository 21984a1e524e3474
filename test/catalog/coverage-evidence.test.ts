// COVERAGE.md's table of who states each routed child's price, per provider, read from the real build:
// its counts are the catalog's own, and what is still estimated is named.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RuntimeCatalog } from '../../language/types.ts';
import { REAL_DIST } from '../helpers/paths.ts';

const dist = join(REAL_DIST, 'catalog');
const coverage = readFileSync(join(dist, 'COVERAGE.md'), 'utf8');
const runtime = JSON.parse(readFileSync(join(dist, 'runtime.json'), 'utf8')) as RuntimeCatalog;
const children = [...new Set(Object.values(runtime.capabilities).flatMap((c) => c.children))];
const row = (provider: string) =>
  coverage
    .split('\n')
    .find((l) => l.startsWith(`| ${provider} |`))!
    .split('|')
    .slice(1, -1)
    .map((c) => c.trim());

describe("COVERAGE.md: who states each routed child's price", () => {
  it('totals the routed children by source as the catalog has them', () => {
    const count = (source: string) => children.filter((id) => runtime.operations[id].cost?.source === source).length;
    expect(coverage).toContain(
      `Routed children: ${children.length}; documented ${count('documented')}, third-party ${count('third_party')}, estimated ${count('estimated')}.`,
    );
  });

  it("a row per provider: its counts, whether a credit's dollar rate is stated, its facts, and what is still estimated", () => {
    const lusha = row('lusha');
    const ids = children.filter((id) => id.startsWith('lusha.'));
    expect(lusha.slice(0, 5)).toEqual(['lusha', String(ids.length), String(ids.length - 1), '0', '1']);
    expect(lusha[5]).toBe('assumed');
    expect(lusha[9]).toBe('companies.similar');
    expect(row('neverbounce')[5]).toBe('stated');
    expect(row('ocean')[6]).toBe('7');
    expect(row('leadmagic').slice(7, 9)).toEqual(['documented', 'documented']);
    expect(row('mailgun').slice(7, 9)).toEqual(['documented', 'third-party']);
    expect(row('skrapp').slice(7, 9)).toEqual(['documented', 'documented']);
    expect(row('storeleads').slice(7, 9)).toEqual(['unchecked', 'unchecked']);
    expect(row('valueserp').slice(7, 9)).toEqual(['third-party', 'third-party']);
    expect(row('kickbox').slice(7, 9)).toEqual(['documented', 'documented']);
  });
});
