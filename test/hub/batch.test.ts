// A tool's batch door, POST /hub/tools/{tool_id}/batch: each row is one run, charged as a single
// run is (its steps plus the price, which the maker earns) under its own call id; the summary, the
// whole batch's ceiling, the stop, refusals before any row runs, and a pinned version.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hubWorld, type HubWorld } from './world.ts';
import { emailTool } from './tool-files.ts';
import { lines, ndjson, readLines, type Line } from '../helpers/ndjson.ts';

let w: HubWorld;
/** a team of its own that runs the batches: its balance moves by exactly what they cost */
let caller: { token: string; teamId: number };
const PRICE = 50_000;

beforeAll(async () => {
  w = await hubWorld();
  expect((await w.req('POST', '/hub/tools', { tool_id: 'batch-email', files: emailTool() })).body.status).toBe('live');
  caller = await w.team('batch caller', 50_000_000);
});
afterAll(() => w.close());

const batch = (path: string, rows: object[], headers: Record<string, string> = {}, token = caller.token) =>
  fetch(`${w.url}/hub/tools/${path}/batch`, {
    method: 'POST',
    body: ndjson(rows),
    headers: { 'x-svc-token': token, 'content-type': 'application/x-ndjson', ...headers },
  });
const stop = (path: string, batchId: string, token = caller.token) =>
  fetch(`${w.url}/hub/tools/${path}/batch/${batchId}/stop`, { method: 'POST', headers: { 'x-svc-token': token } });
const person = (i: number | string, domain = `acme-batch${i}.com`) => ({ domain, full_name: `Jane Doe${i}` });
const chargedByCall = () => w.chargedByCall(caller.teamId);
const earnings = () => w.earnings();
const rowsOf = (seen: Line[]) => seen.filter((l) => !l.event);
/** a run's dry run: its steps' plans and its worst cost, nothing charged */
const dryRun = async (input: object) => {
  const r = await fetch(`${w.url}/hub/tools/batch-email/run`, {
    method: 'POST',
    body: JSON.stringify({ input }),
    headers: { 'x-svc-token': caller.token, 'content-type': 'application/json', 'x-svc-route-dry-run': '1' },
  });
  return r.json() as Promise<{
    worst_cost_micro: number;
    price_micro: number;
    steps: Array<{ plan: Array<{ endpoint_id: string; worst_cost_micro: number }> }>;
  }>;
};

describe('a batch of tool runs', () => {
  it('answers a row per line as a run, charges each once under its own call id, and the maker earns the price per completed run', async () => {
    const balance = await w.ctx.state.balance(caller.teamId);
    const earned = await earnings();
    const r = await batch('batch-email', [
      ...[1, 2, 3, 4].map((i) => ({ id: i, input: person(i) })),
      { id: 'same', input: { full_name: 'Jane Doe1', domain: 'acme-batch1.com' } },
      { id: 'short', input: { domain: 'ab' } },
      { id: 'bare', domain: 'acme.com', full_name: 'Jane Doe' },
    ]);
    expect(r.status).toBe(200);
    expect(r.headers.get('x-svc-call-id')).toMatch(/^call_[0-9a-f]{32}$/);
    const seen = await readLines(r);
    const summary = seen.at(-1)!;
    const byId = new Map(rowsOf(seen).map((l) => [l.id, l]));
    expect(byId.size).toBe(7);

    for (const i of [1, 2, 3, 4]) {
      const row = byId.get(i)!;
      expect(row.status, JSON.stringify(row)).toBe(200);
      expect(row.output).toEqual({ email: expect.stringContaining(`@acme-batch${i}.com`), status: expect.any(String) });
      expect(row._svc).toMatchObject({ tool_id: 'batch-email', version: 1, price_micro: PRICE, served_by: 'batch-email@1' });
      expect(row._svc.steps.map((s: { id: string }) => s.id)).toEqual(['find', 'verify']);
      expect(row._svc.cost_micro).toBeGreaterThan(PRICE);
    }
    const ran = [1, 2, 3, 4].map((i) => byId.get(i)!._svc);
    expect(new Set(ran.map((s) => s.call_id)).size).toBe(4);
    // the same input in another key order is the first row's run, not a second charge
    expect(byId.get('same')).toMatchObject({
      status: 200,
      output: byId.get(1)!.output,
      _svc: { call_id: byId.get(1)!._svc.call_id, shared: true, cost_micro: 0 },
    });
    // a line the run would refuse is a 422 row, with its own call id and no charge
    expect(byId.get('short')).toMatchObject({ status: 422, call_id: expect.stringMatching(/^call_/) });
    expect(JSON.stringify(byId.get('short')!.detail)).toMatch(/full_name/);
    expect(byId.get('bare')).toMatchObject({ status: 422, call_id: expect.stringMatching(/^call_/) });
    expect(JSON.stringify(byId.get('bare')!.detail)).toMatch(/input/);

    const cost = ran.reduce((n, s) => n + s.cost_micro, 0);
    expect(summary).toEqual({ event: 'summary', rows: 7, hits: 5, misses: 0, errors: 2, skipped: 0, cost_micro: cost });
    // the ledger: each run's charges under its call id, exactly what its row says; nothing else
    const charged = await chargedByCall();
    for (const s of ran) expect(charged.get(s.call_id), s.call_id).toBe(s.cost_micro);
    expect(balance - (await w.ctx.state.balance(caller.teamId))).toBe(cost);
    expect((await earnings()) - earned).toBe(4 * PRICE);
    // the maker's run list has the four runs, by the caller
    const runs = (await w.req('GET', '/hub/tools/batch-email/runs')).body.runs as Array<{ call_id: string; team: string; outcome: string }>;
    expect(runs.filter((x) => ran.some((s) => s.call_id === x.call_id)).map((x) => [x.team, x.outcome])).toEqual(Array(4).fill(['batch-caller', 'ok']));
  }, 60_000);

  it('stops at X-Svc-Batch-Max-Cost: later rows are skipped at no charge, and the budget is never passed', async () => {
    const { worst_cost_micro: worst } = await dryRun(person('plan'));
    const budget = Math.floor(worst * 2.5);
    const balance = await w.ctx.state.balance(caller.teamId);
    const earned = await earnings();
    const r = await batch(
      'batch-email',
      Array.from({ length: 8 }, (_, i) => ({ input: person(`budget${i}`) })),
      { 'x-svc-batch-max-cost': (budget / 1e6).toFixed(6), 'x-svc-batch-concurrency': '1' },
    );
    const seen = await readLines(r);
    const summary = seen.at(-1)!;
    const skipped = rowsOf(seen).filter((l) => l.skipped === 'budget');
    expect(skipped.length).toBeGreaterThan(0);
    expect(summary.hits).toBeGreaterThanOrEqual(2);
    expect(summary.skipped).toBe(skipped.length);
    expect(summary.hits + summary.misses + summary.errors + summary.skipped).toBe(8);
    expect(summary.cost_micro).toBeLessThanOrEqual(budget);
    expect(balance - (await w.ctx.state.balance(caller.teamId))).toBe(summary.cost_micro);
    expect((await earnings()) - earned).toBe(summary.hits * PRICE);
    for (const l of skipped) expect(Object.keys(l).sort()).toEqual(['id', 'skipped']);
  }, 60_000);

  it('runs a row within what it reserved: an attempt it has no room left for is skipped (over_ceiling), so the row misses instead of passing the budget', async () => {
    const plan = await dryRun(person('least'));
    // the least a run can have an output with: the price and each step's cheapest attempt
    const least = plan.steps.reduce((n, s) => n + Math.min(...s.plan.map((a) => a.worst_cost_micro)), plan.price_micro);
    expect(plan.worst_cost_micro).toBeGreaterThan(least);
    const finder = plan.steps[0].plan.reduce((a, b) => (b.worst_cost_micro < a.worst_cost_micro ? b : a)).endpoint_id.split('.')[0];
    const balance = await w.ctx.state.balance(caller.teamId);
    // the cheapest finder misses, so the run would need a dearer one than the budget leaves room for
    const seen = await readLines(
      await batch('batch-email', [{ input: person('least', `nohit-${finder}.least.com`) }], { 'x-svc-batch-max-cost': (least / 1e6).toFixed(6) }),
    );
    const [row] = rowsOf(seen);
    expect(row).toMatchObject({ status: 200, _svc: { stopped: 'miss', served_by: null, price_micro: 0 } });
    expect(row._svc.steps[0].tried.map((t: { outcome: string; reason: string }) => [t.outcome, t.reason])).toEqual([
      ['miss', 'empty result'],
      ['skipped', 'over_ceiling'],
    ]);
    expect(seen.at(-1)).toMatchObject({ hits: 0, misses: 1, skipped: 0 });
    expect(seen.at(-1)!.cost_micro).toBeLessThanOrEqual(least);
    expect(balance - (await w.ctx.state.balance(caller.teamId))).toBe(seen.at(-1)!.cost_micro);
  }, 60_000);

  it('asked to stop: the rows in flight are answered and charged, no other row starts', async () => {
    const finder = (await dryRun(person('slow'))).steps[0].plan[0].endpoint_id.split('.')[0];
    const before = new Set((await chargedByCall()).keys());
    const earned = await earnings();
    const rows = Array.from({ length: 16 }, (_, i) => ({ input: person(`stop${i}`, `latency400ms-${finder}.stop${i}.com`) }));
    const r = await batch('batch-email', rows, { 'x-svc-batch-concurrency': '2' });
    const batchId = r.headers.get('x-svc-call-id')!;
    const seen: Line[] = [];
    for await (const line of lines(r.body!)) {
      seen.push(line);
      if (seen.length === 1) expect((await stop('batch-email', batchId)).status).toBe(202);
    }
    const stopping = seen.find((l) => l.event === 'stopping')!;
    expect(stopping.in_flight.length).toBeGreaterThan(0);
    const summary = seen.at(-1)!;
    expect(summary).toMatchObject({ event: 'summary', rows: 16, stopped: 'asked' });
    const answered = rowsOf(seen).filter((l) => l.status === 200);
    expect(answered.length).toBeLessThan(rows.length);
    expect(
      seen
        .slice(seen.indexOf(stopping) + 1)
        .filter((l) => !l.event)
        .map((l) => l.id)
        .sort(),
    ).toEqual([...stopping.in_flight].sort());
    // what ran is what was charged, and earned
    const charged = [...(await chargedByCall()).entries()].filter(([id]) => !before.has(id));
    expect(new Set(charged.map(([id]) => id))).toEqual(new Set(answered.map((l) => l._svc.call_id)));
    expect(charged.reduce((n, [, micro]) => n + micro, 0)).toBe(summary.cost_micro);
    expect((await earnings()) - earned).toBe(answered.filter((l) => l._svc.served_by).length * PRICE);
  }, 60_000);
});

describe('rows the balance refuses', () => {
  it('a team that cannot pay the price: every row a 402 and the batch ends, however many rows wait at once', async () => {
    const broke = await w.team('broke batch caller', PRICE / 5);
    const rows = Array.from({ length: 16 }, (_, i) => ({ id: i, input: person(`broke${i}`) }));
    const r = await batch('batch-email', rows, { 'x-svc-batch-concurrency': '8' }, broke.token);
    const seen = await readLines(r);
    expect(rowsOf(seen).map((l) => l.status)).toEqual(rows.map(() => 402));
    expect(seen.at(-1)).toMatchObject({ event: 'summary', rows: 16, errors: 16, cost_micro: 0 });
    expect(await w.ctx.state.balance(broke.teamId)).toBe(PRICE / 5);
  }, 20_000);
});

describe('what the door refuses before any row runs', () => {
  it('an unknown tool 404, a retired one 410, one with no live version 409, a bad line 400, a route header a run cannot apply 422; nothing charged', async () => {
    expect((await w.req('POST', '/hub/tools', { tool_id: 'batch-gone', files: emailTool() })).body.status).toBe('live');
    expect((await w.req('DELETE', '/hub/tools/batch-gone')).status).toBe(200);
    // a check that cannot pass: the version stays failed, so the tool has no live version
    const failed = await w.req('POST', '/hub/tools', {
      tool_id: 'batch-never',
      files: emailTool((f) => {
        f.check.expect = { status: 'risky' };
      }),
    });
    expect(failed.body.status).toBe('failed');
    const balance = await w.ctx.state.balance(caller.teamId);
    const line = [{ input: person('refused') }];

    const unknown = await batch('batch-nothing', line);
    expect(unknown.status).toBe(404);
    const gone = await batch('batch-gone', line);
    expect(gone.status).toBe(410);
    expect((await gone.json()).detail).toMatch(/retired/);
    // the maker sees its failed tool; the batch has no version to run
    const never = await batch('batch-never', line, {}, w.token);
    expect(never.status).toBe(409);
    expect((await batch('batch-never', line)).status).toBe(404);
    const notJson = await fetch(`${w.url}/hub/tools/batch-email/batch`, {
      method: 'POST',
      body: '{"input": {}}\nnot json',
      headers: { 'x-svc-token': caller.token, 'content-type': 'application/x-ndjson' },
    });
    expect(notJson.status).toBe(400);
    const exclude = await batch('batch-email', line, { 'x-svc-route-exclude': 'findco' });
    expect(exclude.status).toBe(422);
    expect(JSON.stringify(await exclude.json())).toMatch(/does not apply to a hub run/);
    const typo = await batch('batch-email', line, { 'x-svc-batch-max-costs': '0' });
    expect(typo.status).toBe(422);
    expect(await w.ctx.state.balance(caller.teamId)).toBe(balance);

    // the stop: of a tool the team cannot see 404, of something that is no batch id 422
    expect((await stop('batch-nothing', `call_${'0'.repeat(32)}`)).status).toBe(404);
    expect((await stop('batch-email', 'call_nope')).status).toBe(422);
  }, 60_000);

  it('a row refused at a later step (402) names what its earlier step was charged, and the summary and the budget count it', async () => {
    // enough for the price's hold and the first step (20,000), not for the verifier after it
    const short = await w.team('short batch caller', 70_500);
    const earned = await earnings();
    const seen = await readLines(
      await batch('batch-email', [{ id: 'short', input: person('short', 'nohit-checkco.io') }], { 'x-svc-batch-max-cost': '1' }, short.token),
    );
    const [row] = rowsOf(seen);
    expect(row).toMatchObject({ id: 'short', status: 402, call_id: expect.stringMatching(/^call_/), _svc: { served_by: null, cost_micro: 20_000 } });
    expect(row.detail).toMatch(/^Step 'verify' .*balance is too low.*The steps that ran were charged \(20000 micro-USD\); the tool's price was not\.$/);
    expect(seen.at(-1)).toMatchObject({ hits: 0, misses: 0, errors: 1, cost_micro: 20_000 });
    expect((await w.chargedByCall(short.teamId)).get(row.call_id)).toBe(20_000);
    expect(await w.ctx.state.balance(short.teamId)).toBe(70_500 - 20_000);
    expect(await earnings()).toBe(earned);
  }, 60_000);

  it('a step refused for its values (422) after a charged step: the run and the row name what was charged', async () => {
    // the verifier is sent an address from the input, which its format check may refuse once the finder was paid
    const files = emailTool((f) => {
      (f.tool.steps as Array<{ with: Record<string, string> }>)[1].with.email = '{{input.backup}}';
      (f.input.properties as Record<string, unknown>).backup = { type: 'string' };
      f.check.input = { domain: 'acme.com', full_name: 'Jane Doe', backup: 'jane.doe@nohit-checkco.com' };
    });
    expect((await w.req('POST', '/hub/tools', { tool_id: 'batch-backup', files })).body.status).toBe('live');
    const refusable = { domain: 'acme-backup.com', full_name: 'Jane Doe', backup: 'not an address' };
    const balance = await w.ctx.state.balance(caller.teamId);
    const run = await w.req('POST', '/hub/tools/batch-backup/run', { input: refusable }, caller.token);
    expect(run.status).toBe(422);
    expect(run.body.detail[0]).toMatchObject({
      loc: ['steps', 'verify', 'email'],
      msg: expect.stringMatching(/The steps that ran were charged \(\d+ micro-USD\)/),
    });
    const charged = Number(run.headers.get('x-svc-cost-micro'));
    expect(charged).toBeGreaterThan(0);
    expect(run.body.call_id).toBe(run.headers.get('x-svc-call-id'));
    expect((await chargedByCall()).get(run.body.call_id)).toBe(charged);

    const seen = await readLines(await batch('batch-backup', [{ id: 'bad', input: { ...refusable, full_name: 'Jane Doe2' } }]));
    const [row] = rowsOf(seen);
    expect(row).toMatchObject({ status: 422, _svc: { served_by: null, cost_micro: charged } });
    expect(row.detail[0].loc).toEqual(['steps', 'verify', 'email']);
    expect((await chargedByCall()).get(row.call_id)).toBe(charged);
    expect(seen.at(-1)).toMatchObject({ errors: 1, cost_micro: charged });
    expect(balance - (await w.ctx.state.balance(caller.teamId))).toBe(2 * charged);
  }, 60_000);

  it('X-Svc-Route-Max-Cost below the price stops each row before any step: a miss that costs nothing', async () => {
    const balance = await w.ctx.state.balance(caller.teamId);
    const seen = await readLines(await batch('batch-email', [{ input: person('cheap1') }, { input: person('cheap2') }], { 'x-svc-route-max-cost': '0.01' }));
    expect(rowsOf(seen).map((l) => [l.status, l._svc.stopped, l._svc.served_by, l._svc.cost_micro])).toEqual([
      [200, 'max_cost', null, 0],
      [200, 'max_cost', null, 0],
    ]);
    expect(seen.at(-1)).toMatchObject({ hits: 0, misses: 2, cost_micro: 0 });
    expect(await w.ctx.state.balance(caller.teamId)).toBe(balance);
  }, 60_000);
});

describe('versions', () => {
  /** publishes the tool's version 2 at $0.07 a run, live at once */
  const liveAt7Cents = async (toolId: string) =>
    expect(
      (
        await w.req('PUT', `/hub/tools/${toolId}`, {
          files: emailTool((f) => {
            f.tool.price_usd = 0.07;
          }),
        })
      ).body,
    ).toMatchObject({ version: 2, status: 'live' });

  it('runs every row on the version serving when the batch starts: the newest live, or the pinned @N at its own price', async () => {
    expect((await w.req('POST', '/hub/tools', { tool_id: 'batch-pinned', files: emailTool() })).body.status).toBe('live');
    await liveAt7Cents('batch-pinned');
    const earned = await earnings();
    const pinned = rowsOf(await readLines(await batch('batch-pinned@1', [{ input: person('pin1') }, { input: person('pin2') }])));
    expect(pinned.map((l) => [l._svc.version, l._svc.price_micro, l._svc.served_by])).toEqual([
      [1, 50_000, 'batch-pinned@1'],
      [1, 50_000, 'batch-pinned@1'],
    ]);
    const newest = rowsOf(await readLines(await batch('batch-pinned', [{ input: person('new1') }])));
    expect(newest.map((l) => [l._svc.version, l._svc.price_micro, l._svc.served_by])).toEqual([[2, 70_000, 'batch-pinned@2']]);
    expect((await earnings()) - earned).toBe(2 * 50_000 + 70_000);
    // %40 for the @, as a client may send it
    const encoded = rowsOf(await readLines(await batch('batch-pinned%401', [{ input: person('pin1') }])));
    expect(encoded[0]._svc).toMatchObject({ version: 1 });
    // a version that does not exist
    expect((await batch('batch-pinned@9', [{ input: person('pin9') }])).status).toBe(404);
  }, 60_000);

  it('keeps the version it started with when a newer one goes live, and answers its remaining rows 410 once the tool is retired', async () => {
    expect((await w.req('POST', '/hub/tools', { tool_id: 'batch-moving', files: emailTool() })).body.status).toBe('live');
    const finder = (await dryRun(person('moving'))).steps[0].plan[0].endpoint_id.split('.')[0];
    const rows = Array.from({ length: 20 }, (_, i) => ({ id: i + 1, input: person(`moving${i}`, `latency300ms-${finder}.moving${i}.com`) }));
    // the answer's headers come once the batch has chosen its version; the rows then run one at a time
    const r = await batch('batch-moving', rows, { 'x-svc-batch-concurrency': '1' });
    await liveAt7Cents('batch-moving');
    // two more rows charged: the second of them started after version 2 went live (one row at a time)
    const live = new Set((await chargedByCall()).keys());
    while ([...(await chargedByCall()).keys()].filter((id) => !live.has(id)).length < 2) await new Promise((wake) => setTimeout(wake, 50));
    expect((await w.req('DELETE', '/hub/tools/batch-moving')).status).toBe(200);
    const seen = rowsOf(await readLines(r));
    expect(seen).toHaveLength(20);
    const ran = seen.filter((l) => l.status === 200);
    expect(ran.map((l) => l._svc.version)).toEqual(ran.map(() => 1));
    const refused = seen.filter((l) => l.status !== 200);
    expect(refused.length).toBeGreaterThan(0);
    for (const l of refused) expect([l.status, l.detail]).toEqual([410, expect.stringMatching(/retired/)]);
  }, 60_000);

  it('is listed in /openapi.json with the run headers and the batch headers', async () => {
    const doc = (await w.req('GET', '/openapi.json')).body;
    const op = doc.paths['/hub/tools/{tool_id}/batch'].post;
    const headers = op.parameters.filter((p: { in: string }) => p.in === 'header').map((p: { name: string }) => p.name);
    expect(headers).toEqual(expect.arrayContaining(['X-Svc-Route-Max-Cost', 'X-Svc-Route-Dry-Run', 'X-Svc-Batch-Max-Cost', 'X-Svc-Batch-Concurrency']));
    expect(doc.paths['/hub/tools/{tool_id}/batch/{batch_id}/stop'].post).toBeDefined();
  });
});
