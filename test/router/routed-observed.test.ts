// Routed entries show what was measured: routed calls are recorded on svc.<capability> itself (one
// sample per call, with what the caller paid for it), and a thin sample reads as counts ("3 of 4
// hits", "only 4 calls"), never as a bare figure.
import { describe, expect, it } from 'vitest';
import { FIXTURE_DIST } from '../helpers/paths.ts';
import { ledgerCharges, routedWorldPerSuite, type RoutedWorld } from '../helpers/routed.ts';
import { costPerHitWords, hitRateWords } from '../../language/hit-rate-words.ts';
import type { Observed } from '../../language/dist-types.ts';
import { svcCli } from '../helpers/cli.ts';

let w: RoutedWorld;
routedWorldPerSuite(FIXTURE_DIST, (made) => (w = made));

describe("a routed entry's own observed figures", () => {
  it('counts each routed call once on svc.<capability>, with its latency', async () => {
    for (let i = 0; i < 4; i++) expect((await w.call('/proxy/people.email.verify', { email: `jane${i}@acme.com` })).status).toBe(200);
    const o = (await w.call('/catalog/endpoints/svc.people.email.verify')).body.endpoint.observed as Observed;
    expect(o.samples).toBe(4);
    expect(o.decided).toBe(4);
    expect(o.p50_ms).toEqual(expect.any(Number));
    expect(hitRateWords(o)).toBe(`${o.hit_samples} of 4 hits`);
    // the shelf counts provider calls: each routed call's attempts, not its own sample besides
    const attempts = [...w.ctx.state.observations.calls30d()].filter(([id]) => !id.startsWith('svc.')).reduce((n, [, c]) => n + c, 0);
    const shelves = (await w.call('/catalog/platforms')).body.platforms as Array<{ slug: string; calls_30d: number }>;
    expect(shelves.find((p) => p.slug === 'people')?.calls_30d).toBe(attempts);
    expect((await svcCli(['show', 'svc.people.email.verify'], { SVC_URL: w.url })).stdout).toMatch(
      // the latencies of four calls say over how few they were measured
      new RegExp(`^observed\\s+hit rate ${o.hit_samples} of 4 hits, p50 \\d+ ms, p95 \\d+ ms over only 4 calls$`, 'm'),
    );
  });

  it('keeps what each routed call cost its caller: the average per hit, over how many calls', async () => {
    expect(w.ctx.state.observations.observed('svc.people.email.find')).toBeNull();
    const charged = async () => (await ledgerCharges(w)).reduce((n, c) => n - c.amount_micro, 0);
    const chargedBefore = await charged();
    let paid = 0,
      hits = 0;
    // the sandbox's children answer these; what each call cost is in its answer
    for (const [i, domain] of ['stripe.com', 'acme.com', 'no-such-company-7.example', 'stripe.com', 'no-such-company-9.example'].entries()) {
      const r = await w.call('/proxy/people.email.find', { domain, full_name: i % 2 ? 'Nobody Atall' : 'Patrick Collison' });
      expect(r.status).toBe(200);
      paid += r.body._svc.cost_micro;
      if (r.body._svc.served_by) hits++;
    }
    expect(hits).toBeGreaterThan(0);
    // what the calls answered they cost is what the ledger charged for them (no own keys here)
    expect((await charged()) - chargedBefore).toBe(paid);
    const o = (await w.call('/catalog/endpoints/svc.people.email.find')).body.endpoint.observed as Observed;
    expect(o.paid).toEqual({ calls: 5, hits, total_micro: paid, per_hit_micro: Math.round(paid / hits) });
    expect(o.hit_samples).toBe(hits);
    const words = costPerHitWords(o, (m) => `$${(m / 1e6).toFixed(6).replace(/0+$/, '')}`);
    expect(words).toBe(`$${(Math.round(paid / hits) / 1e6).toFixed(6).replace(/0+$/, '')} per hit over only 5 calls`);
    const shown = (await svcCli(['show', 'svc.people.email.find'], { SVC_URL: w.url })).stdout;
    expect(shown).toMatch(/^cost_per_hit\s+\$[\d.]+ per hit over only 5 calls$/m);
  });

  it('reads a share only from 20 decided calls on', () => {
    const o = (decided: number, hits: number): Observed => ({
      samples: decided,
      decided,
      ok_rate: 1,
      p50_ms: 1,
      p95_ms: 1,
      last_ok_days: 0,
      hit_rate: decided ? hits / decided : null,
      hit_samples: hits,
    });
    expect(hitRateWords(o(0, 0))).toBe('not measured');
    expect(hitRateWords(o(4, 3))).toBe('3 of 4 hits');
    expect(hitRateWords(o(19, 0))).toBe('0 of 19 hits');
    expect(hitRateWords(o(20, 15))).toBe('75%');
  });

  it('says how many calls an average cost per hit covers, and "not recorded yet" for samples without costs', () => {
    const o = (paid?: Observed['paid']): Observed => ({
      samples: 30,
      decided: 30,
      ok_rate: 1,
      p50_ms: 1,
      p95_ms: 1,
      last_ok_days: 0,
      hit_rate: 0.5,
      hit_samples: 15,
      ...(paid ? { paid } : {}),
    });
    const money = (m: number) => `${m} µ$`;
    expect(costPerHitWords(o(), money)).toBe('not recorded yet');
    expect(costPerHitWords(o({ calls: 3, hits: 2, total_micro: 9000, per_hit_micro: 4500 }), money)).toBe('4500 µ$ per hit over only 3 calls');
    expect(costPerHitWords(o({ calls: 1, hits: 0, total_micro: 800, per_hit_micro: null }), money)).toBe('no hit yet in only 1 call (800 µ$ paid)');
    expect(costPerHitWords(o({ calls: 25, hits: 20, total_micro: 100_000, per_hit_micro: 5000 }), money)).toBe('5000 µ$ per hit over 25 calls');
  });
});
