// `svc batch` resumed with the same -o pays nothing for rows already answered: the rows are keyed by
// their input position and subject (the output's `row` column), never by output columns that share a
// name with a capability's field, and each line carries the `call_id` its charge has in the ledger.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FIXTURE_DIST } from '../helpers/paths.ts';
import { routedWorld, type RoutedWorld } from '../helpers/routed.ts';
import { batchCli, chargesByCall, readCsv } from '../helpers/batch.ts';

let w: RoutedWorld;
let dir: string;
beforeAll(async () => {
  w = await routedWorld(FIXTURE_DIST, { creditMicro: 10_000_000 });
  dir = mkdtempSync(join(tmpdir(), 'svc-batch-resume-'));
});
afterAll(() => w.close());

const people = Array.from({ length: 10 }, (_, i) => ({ id: String(i + 1), full_name: `Jane Doe${i}`, domain: `acme${i}.com`, note: `lead ${i}` }));
const peopleCsv = ['id,full_name,domain,note', ...people.map((p) => `${p.id},${p.full_name},${p.domain},${p.note}`)].join('\n');

describe('svc batch resume', () => {
  it('a second run over the same -o charges nothing and writes nothing twice (people.email.find, whose output has first_name and last_name)', async () => {
    writeFileSync(join(dir, 'small.csv'), peopleCsv);
    const out = join(dir, 'small-out.csv');
    const first = await batchCli(w, { capability: 'people.email.find', file: join(dir, 'small.csv'), out });
    expect(first.code).toBe(0);
    const lines = readCsv(out);
    expect(lines).toHaveLength(10);
    expect(lines.some((l) => l.first_name)).toBe(true);
    // every line names its input row and the call its charge is under in the ledger
    expect(lines.map((l) => Number(l.row)).sort((a, b) => a - b)).toEqual(people.map((_, i) => i + 1));
    const charged = await chargesByCall(w);
    expect(new Set(lines.map((l) => l.call_id))).toEqual(new Set(charged.keys()));
    expect(lines.reduce((n, l) => n + Math.round(Number(l.cost_usd) * 1e6), 0)).toBe([...charged.values()].reduce((a, b) => a + b, 0));
    const balance = await w.ctx.state.balance(w.teamId);

    const second = await batchCli(w, { capability: 'people.email.find', file: join(dir, 'small.csv'), out, json: true });
    expect(second.code).toBe(0);
    expect(await w.ctx.state.balance(w.teamId)).toBe(balance);
    expect(await chargesByCall(w)).toEqual(charged);
    expect(readCsv(out)).toEqual(lines);
    expect(JSON.parse(second.stdout)).toMatchObject({ rows: 10, answered_before: 10, answered: 0, cost_micro: 0, exit_code: 0 });
  }, 60_000);

  it("output columns never take an input column's name, and the resume still finds every row", async () => {
    const rows = [1, 2, 3].map((i) => ({ email: `clash${i}@acme.com`, status: `mine ${i}`, row: `r${i}`, served_by: 'me', 'output.email': 'kept' }));
    writeFileSync(join(dir, 'clash.csv'), ['email,status,row,served_by,output.email', ...rows.map((r) => Object.values(r).join(','))].join('\n'));
    const out = join(dir, 'clash-out.csv');
    expect((await batchCli(w, { capability: 'people.email.verify', file: join(dir, 'clash.csv'), out })).code).toBe(0);
    const lines = readCsv(out);
    expect(lines).toHaveLength(3);
    for (const l of lines) {
      const r = rows[Number(l['svc.row']) - 1];
      // the input's own cells as they were, svc's beside them under names of their own
      expect(l).toMatchObject({ email: r.email, status: r.status, row: r.row, served_by: 'me', 'output.email': 'kept' });
      expect(l['output.output.email']).toBe(r.email);
      expect(l['svc.served_by']).toMatch(/people\.email\.verify$/);
      expect(l.call_id).toMatch(/^call_/);
      expect(Object.hasOwn(l, 'output.status')).toBe(true);
    }
    const balance = await w.ctx.state.balance(w.teamId);
    const again = await batchCli(w, { capability: 'people.email.verify', file: join(dir, 'clash.csv'), out });
    expect(again.code).toBe(0);
    expect(await w.ctx.state.balance(w.teamId)).toBe(balance);
    expect(readCsv(out)).toHaveLength(3);
  }, 60_000);

  it('opens an output the last release wrote (no row, no call_id): its lines are numbered in place and only the rows missing from it are called', async () => {
    writeFileSync(join(dir, 'old-in.csv'), peopleCsv.replaceAll('acme', 'old'));
    const out = join(dir, 'old-out.csv');
    // as the last release wrote it: input columns, the output fields, served_by, cost_usd; rows 1-6
    // answered, and row 2 twice (that release paid a resumed row again and appended it)
    const legacy = (i: number) =>
      `${i + 1},Jane Doe${i},old${i}.com,lead ${i},jane.doe${i}@old${i}.com,,92,,Jane,Doe${i},,old${i}.com,,findco.people.email.find,0.020000`;
    writeFileSync(
      out,
      [
        'id,full_name,domain,note,email,status,confidence,output.full_name,first_name,last_name,title,output.domain,linkedin_url,served_by,cost_usd',
        ...[0, 1, 2, 3, 4, 5, 1].map(legacy),
      ].join('\n'),
    );
    const before = await chargesByCall(w);

    const r = await batchCli(w, { capability: 'people.email.find', file: join(dir, 'old-in.csv'), out, json: true });
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/written by an older svc.*7 lines/);
    const charged = [...(await chargesByCall(w)).keys()].filter((id) => !before.has(id));
    expect(charged).toHaveLength(4);
    const lines = readCsv(out);
    expect(lines).toHaveLength(11);
    expect(lines.slice(0, 7).map((l) => l.row)).toEqual(['1', '2', '3', '4', '5', '6', '2']);
    expect(lines.slice(0, 7).every((l) => l.call_id === '' && l.first_name === 'Jane')).toBe(true);
    expect(new Set(lines.slice(7).map((l) => l.call_id))).toEqual(new Set(charged));
    expect(
      lines
        .slice(7)
        .map((l) => l.row)
        .sort(),
    ).toEqual(['10', '7', '8', '9']);
    expect(JSON.parse(r.stdout)).toMatchObject({ answered_before: 6, answered: 4 });
    // and from now on it resumes as any other output
    const balance = await w.ctx.state.balance(w.teamId);
    expect((await batchCli(w, { capability: 'people.email.find', file: join(dir, 'old-in.csv'), out })).code).toBe(0);
    expect(await w.ctx.state.balance(w.teamId)).toBe(balance);
  }, 60_000);

  it('a row whose subject changed since is called again; its neighbours are not', async () => {
    const file = join(dir, 'edit.csv');
    const out = join(dir, 'edit-out.csv');
    writeFileSync(file, peopleCsv.replaceAll('acme', 'edit'));
    expect((await batchCli(w, { capability: 'people.email.find', file, out })).code).toBe(0);
    const before = await chargesByCall(w);
    // row 3 now asks about another domain; a row is also inserted above it, moving rows 1-10 down one
    const edited = peopleCsv.replaceAll('acme', 'edit').replace('edit2.com', 'changed2.com').split('\n');
    edited.splice(1, 0, '0,Jim Roe,inserted.com,new');
    writeFileSync(file, edited.join('\n'));
    const r = await batchCli(w, { capability: 'people.email.find', file, out, json: true });
    expect(r.code).toBe(0);
    expect([...(await chargesByCall(w)).keys()].filter((id) => !before.has(id))).toHaveLength(2);
    expect(JSON.parse(r.stdout)).toMatchObject({ rows: 11, answered_before: 9, answered: 2 });
  }, 60_000);
});
