// `svc batch hub:<tool_id> FILE -o OUT`, in process against a hub world: CSV columns are the tool's
// input fields (or mapped to them), each row is one run charged once under the call_id its line
// names, the maker earns the price per run, and a second run over the same output charges nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { hubWorld, type HubWorld } from '../hub/world.ts';
import { emailTool } from '../hub/tool-files.ts';
import { batchCli, readCsv } from '../helpers/batch.ts';

let w: HubWorld;
let dir: string;
let caller: { token: string; teamId: number };
const PRICE = 50_000;

beforeAll(async () => {
  w = await hubWorld();
  dir = mkdtempSync(join(tmpdir(), 'svc-batch-hub-'));
  expect((await w.req('POST', '/hub/tools', { tool_id: 'cli-email', files: emailTool() })).body.status).toBe('live');
  caller = await w.team('cli batch caller', 50_000_000);
});
afterAll(() => w.close());

const chargedByCall = () => w.chargedByCall(caller.teamId);
const earnings = () => w.earnings();
const csv = (name: string, lines: string[]) => {
  writeFileSync(join(dir, name), lines.join('\n'));
  return join(dir, name);
};
const people = Array.from({ length: 5 }, (_, i) => `Jane Doe${i},acme-cli${i}.com,lead ${i}`);

describe('svc batch hub:<tool_id>', () => {
  it('writes a line per run with row and call_id, charges each once, the maker earns per run; the second run charges 0', async () => {
    const file = csv('leads.csv', ['Name,domain,note', ...people]);
    const out = join(dir, 'leads-out.csv');
    const balance = await w.ctx.state.balance(caller.teamId);
    const earned = await earnings();

    const first = await batchCli(w, { capability: 'hub:cli-email', file, out, map: 'Name=full_name', json: true }, caller.token);
    expect(first.code, first.stderr).toBe(0);
    const lines = readCsv(out);
    expect(lines.map((l) => Number(l.row)).sort()).toEqual([1, 2, 3, 4, 5]);
    for (const l of lines) {
      const i = Number(l.row) - 1;
      expect(l).toMatchObject({ Name: `Jane Doe${i}`, domain: `acme-cli${i}.com`, note: `lead ${i}`, served_by: 'cli-email@1' });
      // the tool's output fields: `email`, and `status` (the input has no column of that name)
      expect(l.email).toMatch(new RegExp(`@acme-cli${i}\\.com$`));
      expect(l.status).toBeTruthy();
      expect(l.call_id).toMatch(/^call_[0-9a-f]{32}$/);
    }
    // each line's call_id is a run's charges in the caller's ledger, and its cost_usd what they sum to
    const charged = await chargedByCall();
    for (const l of lines) expect(charged.get(l.call_id), l.call_id).toBe(Math.round(Number(l.cost_usd) * 1e6));
    const cost = lines.reduce((n, l) => n + Math.round(Number(l.cost_usd) * 1e6), 0);
    expect(balance - (await w.ctx.state.balance(caller.teamId))).toBe(cost);
    expect(JSON.parse(first.stdout)).toMatchObject({ rows: 5, answered: 5, hits: 5, cost_micro: cost, exit_code: 0 });
    expect((await earnings()) - earned).toBe(5 * PRICE);

    const second = await batchCli(w, { capability: 'hub:cli-email', file, out, map: 'Name=full_name', json: true }, caller.token);
    expect(second.code, second.stderr).toBe(0);
    expect(JSON.parse(second.stdout)).toMatchObject({ rows: 5, answered_before: 5, answered: 0, cost_micro: 0, exit_code: 0 });
    expect(await w.ctx.state.balance(caller.teamId)).toBe(balance - cost);
    expect(await chargedByCall()).toEqual(charged);
    expect((await earnings()) - earned).toBe(5 * PRICE);
    expect(readCsv(out)).toEqual(lines);
  }, 60_000);

  it('a row the tool refuses is named in the rejects file (exit 4); the rows after it still run, and only it runs again', async () => {
    const file = csv('some-bad.csv', ['full_name,domain', 'Ann Lee,acme-rej1.com', 'Bo Chan,ab', 'Cy Diaz,acme-rej3.com']);
    const out = join(dir, 'some-bad-out.csv');
    const r = await batchCli(w, { capability: 'hub:cli-email', file, out }, caller.token);
    expect(r.code).toBe(4);
    expect(
      readCsv(out)
        .map((l) => l.row)
        .sort(),
    ).toEqual(['1', '3']);
    const rejects = readCsv(join(dir, 'some-bad-out.rejects.csv'));
    expect(rejects).toEqual([expect.objectContaining({ row: '2', status: '422', full_name: 'Bo Chan', domain: 'ab' })]);
    expect(rejects[0].reason).toMatch(/domain/);
    const charged = await chargedByCall();
    writeFileSync(file, readFileSync(file, 'utf8').replace('Bo Chan,ab', 'Bo Chan,acme-rej2.com'));
    const again = await batchCli(w, { capability: 'hub:cli-email', file, out, json: true }, caller.token);
    expect(again.code).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({ answered_before: 2, answered: 1 });
    expect([...(await chargedByCall()).keys()].filter((id) => !charged.has(id))).toHaveLength(1);
  }, 60_000);

  it('reads the fields of the version it runs: hub:<tool_id>@N pins one, and a required field no column gives is a usage error before any row is sent', async () => {
    expect((await w.req('POST', '/hub/tools', { tool_id: 'cli-titled', files: emailTool() })).body.status).toBe('live');
    // version 2 also takes a required title
    const v2 = emailTool((f) => {
      (f.input.required as string[]).push('title');
      (f.input.properties as Record<string, unknown>).title = { type: 'string' };
      (f.check.input as Record<string, unknown>).title = 'CTO';
    });
    expect((await w.req('PUT', '/hub/tools/cli-titled', { files: v2 })).body).toMatchObject({ version: 2, status: 'live' });
    const file = csv('untitled.csv', ['full_name,domain', 'Dee Fox,acme-pin1.com']);
    const charged = await chargedByCall();

    const newest = await batchCli(w, { capability: 'hub:cli-titled', file, out: join(dir, 'untitled-out.csv') }, caller.token);
    expect(newest.code).toBe(2);
    expect(newest.stderr).toMatch(/hub:cli-titled needs 'title' in every row/);
    expect(existsSync(join(dir, 'untitled-out.csv'))).toBe(false);
    expect(await chargedByCall()).toEqual(charged);

    const pinned = await batchCli(w, { capability: 'hub:cli-titled@1', file, out: join(dir, 'pinned-out.csv') }, caller.token);
    expect(pinned.code, pinned.stderr).toBe(0);
    expect(readCsv(join(dir, 'pinned-out.csv'))).toEqual([expect.objectContaining({ row: '1', served_by: 'cli-titled@1' })]);
  }, 60_000);

  it('an unpinned tool runs one version for the whole output: a resume after the maker publishes another runs the one its lines ran', async () => {
    expect((await w.req('POST', '/hub/tools', { tool_id: 'cli-repriced', files: emailTool() })).body.status).toBe('live');
    const file = csv('repriced.csv', ['full_name,domain', 'Gil Hart,acme-rep1.com', 'Hal Ives,acme-rep2.com']);
    const out = join(dir, 'repriced-out.csv');
    const first = await batchCli(w, { capability: 'hub:cli-repriced', file, out }, caller.token);
    expect(first.code, first.stderr).toBe(0);
    // version 2 takes the same input at twice the price
    const v2 = emailTool((f) => {
      f.tool.price_usd = 0.1;
    });
    expect((await w.req('PUT', '/hub/tools/cli-repriced', { files: v2 })).body).toMatchObject({ version: 2, status: 'live' });
    writeFileSync(file, `${readFileSync(file, 'utf8')}\nIda Jones,acme-rep3.com\nJo King,acme-rep4.com`);
    const earned = await earnings();

    const resumed = await batchCli(w, { capability: 'hub:cli-repriced', file, out, json: true }, caller.token);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stderr).toMatch(/ran hub:cli-repriced@1; the rest run it too \(hub:cli-repriced@2 is the newest live: name it/);
    expect(JSON.parse(resumed.stdout)).toMatchObject({ answered_before: 2, answered: 2 });
    expect(readCsv(out).map((l) => [l.row, l.served_by])).toEqual([
      ['1', 'cli-repriced@1'],
      ['2', 'cli-repriced@1'],
      ['3', 'cli-repriced@1'],
      ['4', 'cli-repriced@1'],
    ]);
    expect((await earnings()) - earned).toBe(2 * PRICE);

    // a new output runs the newest live version
    const fresh = await batchCli(w, { capability: 'hub:cli-repriced', file, out: join(dir, 'repriced-new.csv') }, caller.token);
    expect(fresh.code, fresh.stderr).toBe(0);
    expect(new Set(readCsv(join(dir, 'repriced-new.csv')).map((l) => l.served_by))).toEqual(new Set(['cli-repriced@2']));
  }, 60_000);

  it('usage errors before anything is sent: an unknown tool, a malformed name, a --map to a field the tool does not take', async () => {
    const file = csv('usage.csv', ['full_name,domain,Where', 'Eve Gray,acme-use.com,x']);
    const out = join(dir, 'usage-out.csv');
    const charged = await chargedByCall();
    const unknown = await batchCli(w, { capability: 'hub:no-such-tool', file, out }, caller.token);
    expect([unknown.code, unknown.stderr]).toEqual([2, expect.stringMatching(/No tool 'no-such-tool'/)]);
    const malformed = await batchCli(w, { capability: 'hub:Not_A_Tool', file, out }, caller.token);
    expect([malformed.code, malformed.stderr]).toEqual([2, expect.stringMatching(/does not name a tool/)]);
    const badMap = await batchCli(w, { capability: 'hub:cli-email', file, out, map: 'Where=country' }, caller.token);
    expect([badMap.code, badMap.stderr]).toEqual([2, expect.stringMatching(/'country', which hub:cli-email does not take; its fields are domain, full_name/)]);
    expect(existsSync(out)).toBe(false);
    expect(await chargedByCall()).toEqual(charged);
  }, 60_000);
});
