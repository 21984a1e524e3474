// `svc batch` against a running server and the sandbox: a CSV in, a CSV out, stopped by its budget,
// then resumed with the same -o without calling any row twice.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { FIXTURE_DIST } from '../helpers/paths.ts';
import { routedWorld, type RoutedWorld } from '../helpers/routed.ts';
import { batchCli } from '../helpers/batch.ts';

const CREDIT = 10_000_000;
let w: RoutedWorld;
let dir: string;

const calls = async () => Object.values(await w.billing()).reduce((n, b) => n + b.calls, 0);

beforeAll(async () => {
  w = await routedWorld(FIXTURE_DIST, { creditMicro: CREDIT });
  dir = mkdtempSync(join(tmpdir(), 'svc-batch-'));
});
afterAll(() => w.close());

describe('svc batch', () => {
  const people = Array.from({ length: 30 }, (_, i) => ({ name: `Person ${i}, Jr.`, mail: `p${i}@acme.com` }));
  const csv = ['name,Work Email', ...people.map((p) => `"${p.name}",${p.mail}`), `"Again",${people[0].mail}`].join('\n');

  it('stops at --max-cost, then a second run with the same -o calls only the rows left', async () => {
    writeFileSync(join(dir, 'in.csv'), csv);
    const out = join(dir, 'out.csv');
    const first = await batchCli(w, { capability: 'people.email.verify', file: join(dir, 'in.csv'), out, map: 'Work Email=email', maxCost: '0.05' });
    expect(first.stderr).toMatch(/rows left by --max-cost: run again/);
    const partial = parse(readFileSync(out, 'utf8'), { columns: true }) as Array<Record<string, string>>;
    expect(partial.length).toBeGreaterThan(0);
    expect(partial.length).toBeLessThan(31);
    const spentFirst = CREDIT - (await w.ctx.state.balance(w.teamId));
    expect(spentFirst).toBeLessThanOrEqual(50_000);

    const second = await batchCli(w, { capability: 'people.email.verify', file: join(dir, 'in.csv'), out, map: 'Work Email=email' });
    expect(second.stderr).toMatch(/answered before/);
    const rows = parse(readFileSync(out, 'utf8'), { columns: true }) as Array<Record<string, string>>;
    // every input row once, the duplicate subject answered with the first (charged once)
    expect(rows).toHaveLength(31);
    expect(new Set(rows.map((r) => r.name))).toEqual(new Set([...people.map((p) => p.name), 'Again']));
    expect(Object.keys(rows[0])).toEqual(expect.arrayContaining(['name', 'Work Email', 'status', 'served_by', 'cost_usd']));
    expect(rows.every((r) => r.served_by.endsWith('people.email.verify'))).toBe(true);
    // no row was called twice: one provider call per distinct subject, and the CSV's costs are the ledger's
    expect(await calls()).toBe(30);
    const spent = CREDIT - (await w.ctx.state.balance(w.teamId));
    expect(rows.reduce((n, r) => n + Math.round(Number(r.cost_usd) * 1e6), 0)).toBe(spent);
  }, 60_000);

  it('reads NDJSON and writes NDJSON', async () => {
    writeFileSync(
      join(dir, 'in.ndjson'),
      people
        .slice(0, 3)
        .map((p) => JSON.stringify({ email: `nd-${p.mail}`, note: p.name }))
        .join('\n'),
    );
    const out = join(dir, 'out.ndjson');
    expect((await batchCli(w, { capability: 'people.email.verify', file: join(dir, 'in.ndjson'), out })).code).toBe(0);
    const rows = readFileSync(out, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(rows).toHaveLength(3);
    expect(rows[0]).toMatchObject({
      note: expect.any(String),
      email: expect.stringMatching(/^nd-/),
      'output.email': expect.any(String),
      served_by: expect.any(String),
      cost_usd: expect.any(String),
    });
  }, 30_000);
});
