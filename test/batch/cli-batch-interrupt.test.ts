// Ctrl-C on `svc batch`, as a user sends it: a real SIGINT to a spawned `svc` process whose rows are
// slow at the sandbox. The first stops the batch starting rows, waits for the rows in flight and
// writes them (every charge in the ledger is a line of the output), prints the final line and exits
// 130; a resume then pays only for the rows never run. A second Ctrl-C gives up on the rows in flight
// and names them: exactly the rows charged without a line.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { FIXTURE_DIST } from '../helpers/paths.ts';
import { routedWorld, type RoutedWorld } from '../helpers/routed.ts';
import { svcChild, until } from '../helpers/cli.ts';
import { batchCli, chargesByCall } from '../helpers/batch.ts';

const ROWS = 40;
let w: RoutedWorld;
let dir: string;
let first: string;
beforeAll(async () => {
  w = await routedWorld(FIXTURE_DIST, { creditMicro: 10_000_000 });
  dir = mkdtempSync(join(tmpdir(), 'svc-batch-sigint-'));
  const plan = (await w.call('/proxy/people.email.verify', { email: 'plan@acme.com' }, { 'x-svc-route-dry-run': '1' })).body.plan as Array<{
    endpoint_id: string;
  }>;
  first = plan[0].endpoint_id.split('.')[0];
});
afterAll(() => w.close());

const lines = (path: string) => (existsSync(path) ? (parse(readFileSync(path, 'utf8'), { columns: true }) as Array<Record<string, string>>) : []);
const slowList = (name: string, ms: number) => {
  const path = join(dir, `${name}.csv`);
  writeFileSync(path, ['email', ...Array.from({ length: ROWS }, (_, i) => `latency${ms}ms-${first}.${name}${i}@acme.com`)].join('\n'));
  return path;
};

/** until the sandbox has billed nothing new for longer than a slow row takes: every row that started has been charged */
async function settled(quietMs: number): Promise<void> {
  let last = '';
  let since = Date.now();
  await until(() => {
    void w.billing().then((b) => {
      const now = JSON.stringify(b);
      if (now !== last) [last, since] = [now, Date.now()];
    });
    return last !== '' && Date.now() - since > quietMs;
  }, 'the sandbox to settle');
}

const rowNumbers = (list: string) =>
  list.split(', ').flatMap((part) => {
    const [a, b] = part.split('-').map(Number);
    return Array.from({ length: (b ?? a) - a + 1 }, (_, i) => a + i);
  });

describe('Ctrl-C on svc batch', () => {
  it('once: the rows in flight finish and are written, the final line is printed, exit 130; the resume pays only for the rest', async () => {
    const file = slowList('once', 600);
    const out = join(dir, 'once-out.csv');
    const run = svcChild(['batch', 'people.email.verify', file, '-o', out, '--concurrency', '4'], { SVC_URL: w.url, SVC_TOKEN: w.token });
    await until(() => lines(out).length >= 2, 'two answered rows');
    run.child.kill('SIGINT');
    expect(await run.exited).toBe(130);
    const { stderr } = run.output();
    expect(stderr).toMatch(/stopping: no new row starts/);
    expect(stderr).toMatch(/^rows \d+\/40 .*rows? not started \(stopped\): run again/m);
    await settled(1_500);

    // nothing was charged that is not in the output, and far from every row ran
    const written = lines(out);
    const charged = await chargesByCall(w);
    expect(new Set(written.map((l) => l.call_id))).toEqual(new Set(charged.keys()));
    expect(written.length).toBeLessThan(ROWS);

    const resumed = await batchCli(w, { capability: 'people.email.verify', file, out });
    expect(resumed.code).toBe(0);
    const all = lines(out);
    expect(all.map((l) => Number(l.row)).sort((a, b) => a - b)).toEqual(Array.from({ length: ROWS }, (_, i) => i + 1));
    const after = await chargesByCall(w);
    // one charge per row, each under a call id the output names, and the output's costs are the ledger's
    expect(new Set(all.map((l) => l.call_id))).toEqual(new Set(after.keys()));
    expect(after.size).toBe(ROWS);
    expect(all.reduce((n, l) => n + Math.round(Number(l.cost_usd) * 1e6), 0)).toBe([...after.values()].reduce((a, b) => a + b, 0));
  }, 120_000);

  it('twice: the rows in flight are abandoned and named, and they are exactly the charges the output lacks', async () => {
    const file = slowList('twice', 1500);
    const out = join(dir, 'twice-out.csv');
    const before = await chargesByCall(w);
    const run = svcChild(['batch', 'people.email.verify', file, '-o', out, '--concurrency', '4'], { SVC_URL: w.url, SVC_TOKEN: w.token });
    await until(() => lines(out).length >= 1, 'an answered row');
    run.child.kill('SIGINT');
    await until(() => /no row starts any more/.test(run.output().stderr), 'the batch to stop starting rows');
    run.child.kill('SIGINT');
    expect(await run.exited).toBe(130);
    const named = /rows ([\d, -]+) may have been charged/.exec(run.output().stderr);
    expect(named).not.toBeNull();
    const abandoned = rowNumbers(named![1]);
    expect(abandoned.length).toBeGreaterThan(0);
    await settled(2_500);

    const written = lines(out);
    expect(written.filter((l) => abandoned.includes(Number(l.row)))).toEqual([]);
    const unwritten = [...(await chargesByCall(w)).keys()].filter((id) => !before.has(id) && !written.some((l) => l.call_id === id));
    expect(unwritten).toHaveLength(abandoned.length);
  }, 120_000);
});
