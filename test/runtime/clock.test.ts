import { afterEach, describe, expect, it } from 'vitest';
import { nowIso, setClock } from '../../runtime/util/clock.ts';

describe('nowIso', () => {
  afterEach(() => setClock(null));

  it('is the current time as ISO text, moving on with the clock', async () => {
    const before = Date.now();
    const a = nowIso();
    expect(Date.parse(a)).toBeGreaterThanOrEqual(before);
    expect(Date.parse(a)).toBeLessThanOrEqual(Date.now());
    await new Promise((r) => setTimeout(r, 5));
    expect(Date.parse(nowIso())).toBeGreaterThan(Date.parse(a));
  });

  it("is Date's own ISO text at every millisecond, across seconds, days and years", () => {
    const starts = [
      Date.UTC(2026, 10, 26, 13, 36, 5, 998),
      Date.UTC(2026, 11, 31, 23, 59, 59, 990),
      0,
      Date.UTC(1969, 11, 31, 23, 59, 59, 995),
      Date.UTC(10000, 0, 1) - 7,
    ];
    for (const start of starts) {
      for (let ms = start; ms < start + 20; ms++) {
        setClock(() => ms);
        expect(nowIso(), `at ${ms}`).toBe(new Date(ms).toISOString());
      }
    }
  });
});
