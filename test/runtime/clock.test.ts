import { describe, expect, it } from 'vitest';
import { nowIso } from '../../runtime/util/clock.ts';

describe('nowIso', () => {
  it('is the current time as ISO text, moving on with the clock', async () => {
    const before = Date.now();
    const a = nowIso();
    expect(Date.parse(a)).toBeGreaterThanOrEqual(before);
    expect(Date.parse(a)).toBeLessThanOrEqual(Date.now());
    await new Promise((r) => setTimeout(r, 5));
    expect(Date.parse(nowIso())).toBeGreaterThan(Date.parse(a));
  });
});
