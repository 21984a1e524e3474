// Many waits on one timer: each told once when its own time runs out, in time order whatever order
// they came in, and never after it ended. Fake timers: the clock moves only when the test says.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Deadlines } from '../../runtime/util/deadlines.ts';

beforeEach(() => { vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] }); });
afterEach(() => { vi.useRealTimers(); });

describe('deadlines', () => {
  it('tells each wait when its time runs out, a shorter one added later first, and none that ended', () => {
    const deadlines = new Deadlines();
    const told: Array<{ name: string; after: number }> = [];
    const t0 = performance.now();
    const wait = (name: string) => ({ overdue: () => told.push({ name, after: performance.now() - t0 }) });
    const long = wait('long');
    const ended = wait('ended');
    const short = wait('short');
    deadlines.start(long, 120);
    deadlines.start(ended, 60);
    deadlines.start(short, 30);
    deadlines.end(ended);
    vi.advanceTimersByTime(28);
    expect(told).toEqual([]);
    vi.advanceTimersByTime(118 - 28);
    expect(told.map((t) => t.name)).toEqual(['short']);
    vi.advanceTimersByTime(200 - 118);
    expect(told.map((t) => t.name)).toEqual(['short', 'long']);
    // each told within a clock tick of its own time (timers count whole milliseconds), not later
    expect(told[0].after).toBeGreaterThanOrEqual(29);
    expect(told[0].after).toBeLessThanOrEqual(31);
    expect(told[1].after).toBeGreaterThanOrEqual(119);
    expect(told[1].after).toBeLessThanOrEqual(121);
  });

  it('keeps working after its timer fired with nothing left, and tells a wait once', () => {
    const deadlines = new Deadlines();
    let told = 0;
    const w = { overdue: () => { told++; } };
    deadlines.start(w, 10);
    deadlines.end(w);
    vi.advanceTimersByTime(30); // the timer fired and found nothing
    deadlines.start(w, 10);
    vi.advanceTimersByTime(40);
    deadlines.end(w); // after it was told: nothing more happens
    vi.advanceTimersByTime(20);
    expect(told).toBe(1);
  });
});
