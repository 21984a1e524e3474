// A hub run whose caller leaves (its client times out, say) pays for the attempt its step had sent,
// which runs to its end, and for nothing after it: the step tries no further child, the run ends
// there, and a run that did not finish charges no price.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hubWorld, type HubWorld } from './world.ts';
import { emailTool } from './tool-files.ts';
import { postThenLeave } from '../helpers/routed.ts';

let w: HubWorld;
let verifier: string;
let finder: string;

beforeAll(async () => {
  w = await hubWorld();
  expect((await w.req('POST', '/hub/tools', { tool_id: 'email-leaves', files: emailTool() })).body.status).toBe('live');
  const plan = await w.call('/proxy/people.email.verify', { email: 'ann.lee@acme.com' }, { 'x-svc-route-dry-run': '1' });
  verifier = plan.body.plan[0].endpoint_id.split('.')[0];
  finder = (await w.call('/proxy/people.email.find', { domain: 'acme.com', full_name: 'Ann Lee' }, { 'x-svc-route-dry-run': '1' })).body.plan[0].endpoint_id;
});
afterAll(() => w.close());

/** the find step finds the address at once; the verify step's first child misses it after 600 ms, its second would verify it */
const input = (name: string) => ({ domain: `${name}.latency600ms-${verifier}.nohit-${verifier}.io`, full_name: 'Ann Lee' });
const billed = async () => Object.values(await w.billing()).reduce((n, b) => n + b.billed_micro, 0);

describe('a hub run whose caller leaves', () => {
  it('stays: the verify step falls through to its second child, which verifies the address', async () => {
    const r = await w.req('POST', '/hub/tools/email-leaves/run', { input: input('stays') }, w.other.token);
    const verify = r.body._svc.steps[1];
    expect(verify.tried.length).toBe(2);
    expect(verify.served_by).not.toBeNull();
  });

  it('leaves: the step under way tries no further child, the run ends there, and no price is charged', async () => {
    await fetch(`${w.running.url}/_sandbox/reset`, { method: 'POST' });
    const balance = await w.ctx.state.balance(w.other.teamId);
    const earned = await w.earnings();
    // leaves once the find step is done and the verify step's first child is waiting
    await postThenLeave(`${w.url}/hub/tools/email-leaves/run`, { input: input('leaves') }, { 'x-svc-token': w.other.token }, 300);
    // long enough for the first verifier's miss, and for the second verifier had it been asked
    await new Promise((r) => setTimeout(r, 1_500));
    // the find step's hit is billed, the first verifier's miss is free, and nothing else was called
    expect(Object.keys(await w.billing())).toEqual([finder]);
    expect(balance - (await w.ctx.state.balance(w.other.teamId))).toBe(await billed());
    expect(await w.earnings()).toBe(earned);
  });
});
