// `svc batch` against a running server and the sandbox: a CSV in, a CSV out, stopped by its budget,
// then resumed with the same -o without calling any row twice.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { FIXTURE_DIST } from '../helpers/paths.ts';
import { svcCli } from '../helpers/cli.ts';
import { routedWorld, type RoutedWorld } from '../helpers/routed.ts';

const CREDIT = 10_000_000;
let w: RoutedWorld;
let dir: string;

/** `svc …` that succeeds, or rejects with its result (as a failed child process would) */
const svc = async (args: string[], token = w.token) => {
  const r = await svcCli(args, { SVC_URL: w.url, SVC_TOKEN: token });
  if (r.code !== 0) throw Object.assign(new Error(`svc exited ${r.code}: ${r.stderr}`), r);
  return r;
};
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
    const first = await svc(['batch', 'people.email.verify', join(dir, 'in.csv'), '-o', out, '--map', 'Work Email=email', '--max-cost', '0.05']);
    expect(first.stderr).toMatch(/rows not answered: run again/);
    const partial = parse(readFileSync(out, 'utf8'), { columns: true }) as Array<Record<string, string>>;
    expect(partial.length).toBeGreaterThan(0);
    expect(partial.length).toBeLessThan(31);
    const spentFirst = CREDIT - (await w.ctx.state.balance(w.teamId));
    expect(spentFirst).toBeLessThanOrEqual(50_000);

    const second = await svc(['batch', 'people.email.verify', join(dir, 'in.csv'), '-o', out, '--map', 'Work Email=email']);
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
    writeFileSync(join(dir, 'in.ndjson'), people.slice(0, 3).map((p) => JSON.stringify({ email: `nd-${p.mail}`, note: p.name })).join('\n'));
    const out = join(dir, 'out.ndjson');
    await svc(['batch', 'people.email.verify', join(dir, 'in.ndjson'), '-o', out]);
    const rows = readFileSync(out, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    expect(rows).toHaveLength(3);
    expect(rows[0]).toMatchObject({ note: expect.any(String), email: expect.stringMatching(/^nd-/), 'output.email': expect.any(String), served_by: expect.any(String), cost_usd: expect.any(String) });
  }, 30_000);

  it('rows refused as sent (422) are counted apart: running again would not help them', async () => {
    const lines = [{ email: 'refused-ok@acme.com' }, { note: 'no email at all' }];
    writeFileSync(join(dir, 'refused.ndjson'), lines.map((l) => JSON.stringify(l)).join('\n'));
    const out = join(dir, 'refused-out.ndjson');
    const { stderr } = await svc(['batch', 'people.email.verify', join(dir, 'refused.ndjson'), '-o', out]);
    expect(stderr).toMatch(/1 rows refused as sent \(422/);
    expect(stderr).not.toMatch(/run again to retry/);
    expect(readFileSync(out, 'utf8').trim().split('\n')).toHaveLength(1);
  }, 30_000);

  it('a row the balance stopped (held by the rows in flight) is left for the next run, not written as a miss', async () => {
    const plan = (await w.call('/proxy/people.email.verify', { email: 'plan@acme.com' }, { 'x-svc-route-dry-run': '1' })).body.plan as Array<{ endpoint_id: string; worst_cost_micro: number }>;
    const cheapest = plan.reduce((a, b) => (b.worst_cost_micro < a.worst_cost_micro ? b : a));
    // credit for one attempt: the two rows race for it, and the provider is slow enough that the
    // loser finds it held and every child skipped for the balance
    const { token } = (await w.ctx.state.createTeam('one attempt team', cheapest.worst_cost_micro))!;
    const slow = `latency400ms-${cheapest.endpoint_id.split('.')[0]}`;
    writeFileSync(join(dir, 'broke.ndjson'), ['a', 'b'].map((n) => JSON.stringify({ email: `${slow}.${n}@acme.com` })).join('\n'));
    const out = join(dir, 'broke-out.ndjson');
    const { stderr } = await svc(['batch', 'people.email.verify', join(dir, 'broke.ndjson'), '-o', out, '--concurrency', '2'], token);
    const written = readFileSync(out, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    expect(written).toHaveLength(1);
    expect(written[0].served_by).toBe(cheapest.endpoint_id);
    expect(stderr).toMatch(/1 rows not answered: run again/);
  }, 30_000);

  it('a capability that does not exist is one sentence and a non-zero exit', async () => {
    await expect(svc(['batch', 'no.such', join(dir, 'in.csv'), '-o', join(dir, 'x.csv')])).rejects.toMatchObject({ stderr: expect.stringMatching(/No routed capability 'no.such'/) });
  });
});
