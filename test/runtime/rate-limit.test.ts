import { describe, expect, it } from 'vitest';
import { RateLimit } from '../../runtime/find/rate-limit.ts';
import { LocalEphemera } from '../../runtime/state/ephemeral-local.ts';

describe('RateLimit', () => {
  it('allows N a minute per client, says how long to wait, and opens again with the next window', async () => {
    let now = 0;
    const windows = new LocalEphemera(() => now);
    const limit = new RateLimit(2, { hit: async (name, ms) => windows.hit(name, ms) });
    expect([await limit.take('a'), await limit.take('a'), await limit.take('b')]).toEqual([0, 0, 0]);
    now = 15_000;
    expect(await limit.take('a')).toBe(45);
    now = 60_000;
    expect(await limit.take('a')).toBe(0);
  });
});
