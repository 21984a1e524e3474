// What `svc batch` answers a script: its exit code (docs/cli.md), its --json summary, and the rejects
// file naming each row the server refused or failed, with its reason. Usage errors are found before
// anything is sent, so nothing is charged for them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FIXTURE_DIST } from '../helpers/paths.ts';
import { routedWorld, type RoutedWorld } from '../helpers/routed.ts';
import { batchCli, chargesByCall, readCsv } from '../helpers/batch.ts';

let w: RoutedWorld;
let dir: string;
beforeAll(async () => {
  w = await routedWorld(FIXTURE_DIST, { creditMicro: 10_000_000 });
  dir = mkdtempSync(join(tmpdir(), 'svc-batch-exit-'));
});
afterAll(() => w.close());

const spent = async () => [...(await chargesByCall(w)).values()].reduce((a, b) => a + b, 0);
const write = (name: string, text: string) => {
  writeFileSync(join(dir, name), text);
  return join(dir, name);
};

describe('svc batch exit codes', () => {
  it('rows left by --max-cost: exit 3, counted in the --json summary, within the budget on the ledger', async () => {
    const file = write('budget.csv', ['email', ...Array.from({ length: 30 }, (_, i) => `budget${i}@acme.com`)].join('\n'));
    const before = await spent();
    const r = await batchCli(w, { capability: 'people.email.verify', file, out: join(dir, 'budget-out.csv'), maxCost: '0.005', json: true });
    expect(r.code).toBe(3);
    const summary = JSON.parse(r.stdout);
    expect(summary).toMatchObject({ rows: 30, answered_before: 0, refused: 0, failed: 0, interrupted: false, exit_code: 3 });
    expect(summary.skipped_budget).toBeGreaterThan(0);
    expect(summary.answered + summary.skipped_budget + summary.not_started).toBe(30);
    expect(summary.cost_micro).toBe((await spent()) - before);
    expect(summary.cost_micro).toBeLessThanOrEqual(5_000);
    expect(r.stderr).toMatch(/rows left by --max-cost: run again/);
  });

  it('every row refused: exit 4, and the rejects file names each row and why; nothing is charged', async () => {
    const file = write('refused.ndjson', [{ note: 'no email' }, { email: 'not-an-email' }].map((l) => JSON.stringify(l)).join('\n'));
    const before = await spent();
    const r = await batchCli(w, { capability: 'people.email.verify', file, out: join(dir, 'refused-out.ndjson'), json: true });
    expect(r.code).toBe(4);
    expect(JSON.parse(r.stdout)).toMatchObject({ answered: 0, refused: 2, rejects: join(dir, 'refused-out.rejects.ndjson'), exit_code: 4 });
    const rejects = readFileSync(join(dir, 'refused-out.rejects.ndjson'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    // in the order answered, not the input's
    expect(rejects.sort((a, b) => a.row - b.row)).toEqual([
      { row: 1, status: 422, reason: expect.stringMatching(/^Send one of these identity sets/), note: 'no email' },
      { row: 2, status: 422, reason: expect.stringMatching(/email/), email: 'not-an-email' },
    ]);
    expect(existsSync(join(dir, 'refused-out.ndjson'))).toBe(false);
    expect(await spent()).toBe(before);
  });

  it('refused and failed rows beside answered ones: exit 4, each named in --rejects; a clean run removes the stale file', async () => {
    const file = write('mixed.csv', ['email,status', 'ok.mixed@acme.com,a', 'not-an-email,b', 'fail-checkco.fail-zerobounce@acme.com,c'].join('\n'));
    const rejects = join(dir, 'my-rejects.csv');
    const r = await batchCli(w, { capability: 'people.email.verify', file, out: join(dir, 'mixed-out.csv'), rejects });
    expect(r.code).toBe(4);
    expect(r.stderr).toMatch(/ 1 row refused \(4xx\), each named with its reason in .*my-rejects\.csv/);
    expect(r.stderr).toMatch(/ 1 row failed \(5xx\)/);
    // the input's own `status` column keeps its name; svc's is svc.status
    expect(readCsv(rejects).sort((a, b) => Number(a.row) - Number(b.row))).toEqual([
      { row: '2', 'svc.status': '422', reason: expect.stringMatching(/email/), email: 'not-an-email', status: 'b' },
      { row: '3', 'svc.status': '502', reason: expect.stringMatching(/failed/), email: 'fail-checkco.fail-zerobounce@acme.com', status: 'c' },
    ]);
    expect(readCsv(join(dir, 'mixed-out.csv')).map((l) => l.row)).toEqual(['1']);
    // the input fixed: the rows left are answered, and the rejects of the run before are gone
    writeFileSync(file, ['email,status', 'ok.mixed@acme.com,a', 'fixed@acme.com,b', 'fixed2@acme.com,c'].join('\n'));
    const again = await batchCli(w, { capability: 'people.email.verify', file, out: join(dir, 'mixed-out.csv'), rejects });
    expect(again.code).toBe(0);
    expect(existsSync(rejects)).toBe(false);
  });

  it('a row that failed (every provider errored) and none refused: exit 5, named in the rejects file', async () => {
    const file = write('failed.csv', ['email', 'ok.failed@acme.com', 'fail-checkco.fail-zerobounce@acme.com'].join('\n'));
    const r = await batchCli(w, { capability: 'people.email.verify', file, out: join(dir, 'failed-out.csv'), json: true });
    expect(r.code).toBe(5);
    expect(JSON.parse(r.stdout)).toMatchObject({ answered: 1, refused: 0, failed: 1, exit_code: 5 });
    expect(readCsv(join(dir, 'failed-out.rejects.csv'))).toEqual([
      { row: '2', status: '502', reason: expect.stringMatching(/failed/), email: 'fail-checkco.fail-zerobounce@acme.com' },
    ]);
  });

  it('a row the balance stopped is a reject (402) left for the next run, not written as a miss: exit 4', async () => {
    const plan = (await w.call('/proxy/people.email.verify', { email: 'plan@acme.com' }, { 'x-svc-route-dry-run': '1' })).body.plan as Array<{
      endpoint_id: string;
      worst_cost_micro: number;
    }>;
    const cheapest = plan.reduce((a, b) => (b.worst_cost_micro < a.worst_cost_micro ? b : a));
    // credit for one attempt: the two rows race for it, and the provider is slow enough that the
    // loser finds it held and every child skipped for the balance
    const { token } = (await w.ctx.state.createTeam('one attempt team', cheapest.worst_cost_micro))!;
    const slow = `latency400ms-${cheapest.endpoint_id.split('.')[0]}`;
    const file = write('broke.ndjson', ['a', 'b'].map((n) => JSON.stringify({ email: `${slow}.${n}@acme.com` })).join('\n'));
    const out = join(dir, 'broke-out.ndjson');
    const r = await batchCli(w, { capability: 'people.email.verify', file, out, concurrency: '2' }, token);
    expect(r.code).toBe(4);
    const written = readFileSync(out, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(written).toHaveLength(1);
    expect(written[0].served_by).toBe(cheapest.endpoint_id);
    const rejects = readFileSync(join(dir, 'broke-out.rejects.ndjson'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(rejects).toEqual([expect.objectContaining({ row: written[0].row === 1 ? 2 : 1, status: 402 })]);
  });
});

describe('svc batch usage errors: exit 2, nothing sent', () => {
  const people = write.bind(null);
  const cases: Array<[string, () => Parameters<typeof batchCli>[1], RegExp]> = [
    [
      'an unknown capability',
      () => ({ capability: 'nope.cap', file: people('u1.csv', 'email\na@acme.com'), out: join(dir, 'u1-out.csv') }),
      /No routed capability 'nope.cap'/,
    ],
    [
      '--concurrency past 32',
      () => ({ capability: 'people.email.verify', file: people('u2.csv', 'email\na@acme.com'), out: join(dir, 'u2-out.csv'), concurrency: '64' }),
      /--concurrency takes a whole number from 1 to 32/,
    ],
    [
      '--map naming a column the input lacks',
      () => ({
        capability: 'people.email.verify',
        file: people('u3.csv', 'Email Address\na@acme.com'),
        out: join(dir, 'u3-out.csv'),
        map: 'Email Addres=email',
      }),
      /--map names the column 'Email Addres', which the input does not have; its columns are 'Email Address'/,
    ],
    [
      '--map naming a field the capability lacks',
      () => ({
        capability: 'people.email.verify',
        file: people('u4.csv', 'Email Address\na@acme.com'),
        out: join(dir, 'u4-out.csv'),
        map: 'Email Address=emial',
      }),
      /which people.email.verify does not take/,
    ],
    [
      'a ragged CSV',
      () => ({ capability: 'people.email.verify', file: people('u5.csv', 'email,note\na@acme.com,x\nb@acme.com,y,z'), out: join(dir, 'u5-out.csv') }),
      /is not a CSV file/,
    ],
    ['an input file that does not exist', () => ({ capability: 'people.email.verify', file: join(dir, 'none.csv'), out: join(dir, 'u6-out.csv') }), /No file/],
    [
      'a bad --max-cost',
      () => ({ capability: 'people.email.verify', file: people('u7.csv', 'email\na@acme.com'), out: join(dir, 'u7-out.csv'), maxCost: 'lots' }),
      /--max-cost takes a USD amount/,
    ],
  ];
  it.each(cases)('%s', async (_, options, sentence) => {
    const billed = await w.billing();
    const before = await spent();
    const o = options();
    const r = await batchCli(w, o);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(sentence);
    expect(await w.billing()).toEqual(billed);
    expect(await spent()).toBe(before);
    expect(existsSync(o.out)).toBe(false);
  });
});
