// Many waits on one timer: each told once when its own time runs out, in time order whatever order
// they came in, and never after it ended.
import { describe, expect, it } from 'vitest';
import { Deadlines } from '../../runtime/util/deadlines.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('deadlines', () => {
  it('tells each wait when its time runs out, a shorter one added later first, and none that ended', async () => {
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
    await sleep(200);
    expect(told.map((t) => t.name)).toEqual(['short', 'long']);
    expect(told[0].after).toBeGreaterThanOrEqual(29);
    expect(told[1].after).toBeGreaterThanOrEqual(119);
    expect(told[1].after).toBeLessThan(180);
  });

  it('keeps working after its timer fired with nothing left, and tells a wait once', async () => {
    const deadlines = new Deadlines();
    let told = 0;
    const w = { overdue: () => { told++; } };
    deadlines.start(w, 10);
    deadlines.end(w);
    await sleep(30); // the timer fired and found nothing
    deadlines.start(w, 10);
    await sleep(40);
    deadlines.end(w); // after it was told: nothing more happens
    await sleep(20);
    expect(told).toBe(1);
  });
});
