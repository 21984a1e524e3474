// A step may call one catalog operation (a pass-through, in-process): its parameters are checked at
// publish, its answer is the provider's own JSON, read against the operation's captured example.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hubWorld, type HubWorld } from './world.ts';
import { emailTool } from './tool-files.ts';

let w: HubWorld;
beforeAll(async () => {
  w = await hubWorld();
});
afterAll(() => w.close());

const withOperation = (
  check: Record<string, unknown>,
  output: Record<string, unknown> = { email: '{{steps.find.output.email}}', verdict: '{{steps.check.output.verdict}}' },
) =>
  emailTool((f) => {
    (f.tool.steps as unknown[])[1] = { id: 'check', call: 'checkco.people.email.verify', with: check };
    f.tool.output = output;
    f.output = { type: 'object', required: ['email', 'verdict'], properties: { email: { type: 'string' }, verdict: { type: 'string' } } };
    f.check = { input: { domain: 'acme.com', full_name: 'Jane Doe' }, expect: { verdict: 'invalid' } };
  });

describe('a catalog operation as a step', () => {
  it("is called with its own parameters, answers in the provider's shape, and is charged like a pass-through", async () => {
    const r = await w.req('POST', '/hub/tools', { tool_id: 'op-tool', files: withOperation({ address: '{{steps.find.output.email}}' }) });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ status: 'live', check: { ok: true, output: { email: 'jane.doe@acme.com', verdict: 'invalid' } } });
    const caller = await w.team('op caller', 1_000_000);
    await fetch(`${w.running.url}/_sandbox/reset`, { method: 'POST' });
    const run = await w.req('POST', '/hub/tools/op-tool/run', { input: { domain: 'acme.com', full_name: 'Ann Lee' } }, caller.token);
    expect(run.status).toBe(200);
    expect(run.body._svc.steps[1]).toMatchObject({ id: 'check', call: 'checkco.people.email.verify', outcome: 'hit', status: 200, cost_micro: 1000 });
    const billing = await w.billing();
    expect(billing['checkco.people.email.verify']).toEqual({ calls: 1, billed_micro: 1000 });
    expect(1_000_000 - (await w.ctx.state.balance(caller.teamId))).toBe(run.body._svc.cost_micro);
  });

  it('a path parameter the pass-through refuses (a dot segment) after a charged step ends the run naming that charge', async () => {
    const files = emailTool((f) => {
      (f.tool.steps as unknown[])[1] = {
        id: 'search',
        call: 'searchco.google.serp.organic.rows',
        with: { engine: '{{input.engine}}', query: '{{steps.find.output.email}}', size: 5 },
      };
      f.tool.output = { email: '{{steps.find.output.email}}' };
      f.output = { type: 'object', required: ['email'], properties: { email: { type: 'string' } } };
      (f.input.properties as Record<string, unknown>).engine = { type: 'string' };
      f.check = { input: { domain: 'acme.com', full_name: 'Jane Doe', engine: 'google' }, expect: {} };
    });
    expect((await w.req('POST', '/hub/tools', { tool_id: 'op-engine', files })).body.status).toBe('live');
    const caller = await w.team('engine caller', 1_000_000);
    const r = await w.req('POST', '/hub/tools/op-engine/run', { input: { domain: 'acme.com', full_name: 'Ann Lee', engine: '..' } }, caller.token);
    const charged = 1_000_000 - (await w.ctx.state.balance(caller.teamId));
    expect(charged).toBeGreaterThan(0);
    // a value the step refuses is a 422 at the step; the finder was charged, and the answer says so
    expect(r.status).toBe(422);
    expect(r.body.detail).toEqual([
      {
        loc: ['steps', 'search'],
        msg: `The path may not contain dot segments or encoded slashes. The steps that ran were charged (${charged} micro-USD); the tool's price was not.`,
        type: 'value_error.path',
      },
    ]);
    expect(r.headers.get('x-svc-cost-micro')).toBe(String(charged));
    expect(r.body.call_id).toBe(r.headers.get('x-svc-call-id'));
    expect((await w.req('GET', '/hub/tools/op-engine/runs')).body.runs[0]).toMatchObject({ call_id: r.body.call_id, outcome: 'failed', price_micro: 0 });
  });

  it('refuses a parameter the operation does not declare, a missing required one, and a field its example never shows', async () => {
    const r = await w.req('POST', '/hub/tools', {
      tool_id: 'op-broken',
      files: withOperation({ email: '{{steps.find.output.email}}' }, { email: '{{steps.find.output.email}}', verdict: '{{steps.check.output.result}}' }),
    });
    expect(r.status).toBe(422);
    const byLoc = Object.fromEntries(r.body.detail.map((d: { loc: string[]; msg: string }) => [d.loc[3], d.msg]));
    expect(byLoc['/steps/1/with/email']).toMatch(/takes no field 'email' \(it takes 'address'\)/);
    expect(byLoc['/steps/1/with']).toMatch(/requires 'address'/);
    expect(byLoc['/output/verdict']).toMatch(/reads 'result', which checkco\.people\.email\.verify never returns/);
  });
});
