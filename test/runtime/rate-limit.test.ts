import { describe, expect, it } from 'vitest';
import { RateLimit } from '../../runtime/find/rate-limit.ts';

describe('RateLimit', () => {
  it('allows N a minute per client, says how long to wait, and opens again with the next window', () => {
    let now = 0;
    const limit = new RateLimit(2, () => now);
    expect([limit.take('a'), limit.take('a'), limit.take('b')]).toEqual([0, 0, 0]);
    now = 15_000;
    expect(limit.take('a')).toBe(45);
    now = 60_000;
    expect(limit.take('a')).toBe(0);
  });
});
