// Routed entries show what was measured: routed calls are recorded on svc.<capability> itself (one
// sample per call), and a thin sample reads as counts ("3 of 4 hits"), never as a bare share.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURE_DIST } from '../helpers/paths.ts';
import { routedWorld, type RoutedWorld } from '../helpers/routed.ts';
import { hitRateWords } from '../../language/hit-rate-words.ts';
import type { Observed } from '../../language/dist-types.ts';
import { svcCli } from '../helpers/cli.ts';

let w: RoutedWorld;
beforeAll(async () => { w = await routedWorld(FIXTURE_DIST); }, 60_000);
afterAll(async () => { await w.close(); });

describe('a routed entry\'s own observed figures', () => {
  it('counts each routed call once on svc.<capability>, with its latency', async () => {
    for (let i = 0; i < 4; i++) expect((await w.call('/proxy/people.email.verify', { email: `jane${i}@acme.com` })).status).toBe(200);
    const o = (await w.call('/catalog/endpoints/svc.people.email.verify')).body.endpoint.observed as Observed;
    expect(o.samples).toBe(4);
    expect(o.decided).toBe(4);
    expect(o.p50_ms).toEqual(expect.any(Number));
    expect(hitRateWords(o)).toBe(`${o.hit_samples} of 4 hits`);
    expect((await svcCli(['show', 'svc.people.email.verify'], { SVC_URL: w.url })).stdout).toMatch(new RegExp(`^observed\\s+hit rate ${o.hit_samples} of 4 hits, p50 \\d+ ms`, 'm'));
  });

  it('reads a share only from 20 decided calls on', () => {
    const o = (decided: number, hits: number): Observed => ({ samples: decided, decided, ok_rate: 1, p50_ms: 1, p95_ms: 1, last_ok_days: 0, hit_rate: decided ? hits / decided : null, hit_samples: hits });
    expect(hitRateWords(o(0, 0))).toBe('not measured');
    expect(hitRateWords(o(4, 3))).toBe('3 of 4 hits');
    expect(hitRateWords(o(19, 0))).toBe('0 of 19 hits');
    expect(hitRateWords(o(20, 15))).toBe('75%');
  });
});
