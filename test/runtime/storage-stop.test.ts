// Storage that stops answering in the middle of a call, after some of it was charged. A 503 saying
// "nothing was charged" would then be untrue, so the call ends there and answers 503 with Retry-After,
// what was charged and for which attempts or steps, and the ledger agrees. Redis going away exactly
// between two holds of one call is a window no outside kill can hit on cue, so the state's hold
// raises StorageUnavailable itself from the Nth hold on, as the Redis backend does when Redis is away.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routedWorld, type RoutedWorld } from '../helpers/routed.ts';
import { FIXTURE_DIST } from '../helpers/paths.ts';
import { StorageUnavailable } from '../../runtime/state/unavailable.ts';
import type { Atomics } from '../../runtime/state/atomics.ts';
import { emailTool } from '../hub/tool-files.ts';

let w: RoutedWorld;
beforeAll(async () => {
  w = await routedWorld(FIXTURE_DIST, { creditMicro: 100_000_000 });
});
afterAll(async () => {
  await w?.close();
});

/** holds answer as usual `working` more times, then raise as an unreachable Redis does; undone by the returned function */
function storageFailsAfter(working: number): () => void {
  const atomics = w.ctx.state.atomics as Atomics & { hold: Atomics['hold'] };
  const real = atomics.hold.bind(atomics);
  let left = working;
  atomics.hold = (...args: Parameters<Atomics['hold']>) =>
    left-- > 0 ? real(...args) : Promise.reject(new StorageUnavailable(new Error('connect ECONNREFUSED'), 'Redis'));
  return () => {
    atomics.hold = real;
  };
}

const charges = async (callId: string) => {
  const page = await w.call('/teams/me/ledger');
  return (page.body.entries as Array<{ kind: string; amount_micro: number; call_id?: string }>).filter((e) => e.call_id === callId && e.kind === 'charge');
};

describe('storage gone after part of a call was charged', () => {
  it('a routed call whose hit was charged, then its verification could not hold: 503, the charge stated and in the ledger', async () => {
    const restore = storageFailsAfter(1); // the opening hold works; the verifier's does not
    try {
      const before = await w.ctx.state.balance(w.teamId);
      const r = await w.call('/proxy/people.email.find', { domain: 'stripe.com', full_name: 'Jane Doe' }, { 'X-Svc-Route-Verify': 'true' });
      expect(r.status).toBe(503);
      expect(r.headers.get('retry-after')).toBe('2');
      expect(r.headers.get('x-svc-stopped')).toBe('storage');
      const cost = Number(r.headers.get('x-svc-cost-micro'));
      expect(cost).toBeGreaterThan(0);
      expect(r.body.detail).toContain(`were charged (${cost} micro-USD`);
      expect(r.body._svc).toMatchObject({ stopped: 'storage', cost_micro: cost });
      expect(r.body._svc.tried.reduce((n: number, t: { cost_micro?: number }) => n + (t.cost_micro ?? 0), 0)).toBe(cost);
      restore();
      expect(before - (await w.ctx.state.balance(w.teamId))).toBe(cost);
      expect((await charges(r.body._svc.call_id)).reduce((n, e) => n - e.amount_micro, 0)).toBe(cost);
    } finally {
      restore();
    }
  });

  it('before any charge the call is the plain 503: nothing was charged', async () => {
    const restore = storageFailsAfter(0);
    try {
      const before = await w.ctx.state.balance(w.teamId);
      const r = await w.call('/proxy/people.email.find', { domain: 'stripe.com', full_name: 'Jane Doe' });
      expect(r.status).toBe(503);
      expect(r.headers.get('retry-after')).toBe('2');
      expect(r.body.detail).toMatch(/nothing was charged/);
      restore();
      expect(await w.ctx.state.balance(w.teamId)).toBe(before);
    } finally {
      restore();
    }
  });

  it('a hub run whose first step was charged and whose second could not hold: 503 naming the steps charged, the price not charged', async () => {
    const published = await w.call('/hub/tools', { tool_id: 'storage-stop-tool', files: emailTool() });
    expect(published.body.status).toBe('live');
    const restore = storageFailsAfter(2); // the run's price and the first step hold; the second step does not
    try {
      const before = await w.ctx.state.balance(w.teamId);
      const r = await w.call('/hub/tools/storage-stop-tool/run', { input: { domain: 'acme.com', full_name: 'Jane Doe' } });
      expect(r.status).toBe(503);
      expect(r.headers.get('retry-after')).toBe('2');
      expect(r.body._svc).toMatchObject({ stopped: 'storage', step: 'verify', price_micro: 0 });
      const stepsCost = r.body._svc.steps[0].cost_micro as number;
      expect(stepsCost).toBeGreaterThan(0);
      expect(r.body._svc.cost_micro).toBe(stepsCost);
      expect(r.body.detail).toMatch(
        new RegExp(
          `^Step 'verify' \\(svc\\.people\\.email\\.verify\\) was cut short: storage stopped answering\\. The steps that ran were charged \\(${stepsCost} micro-USD\\); the tool's price was not\\.`,
        ),
      );
      restore();
      expect(before - (await w.ctx.state.balance(w.teamId))).toBe(stepsCost);
    } finally {
      restore();
    }
  });
});
