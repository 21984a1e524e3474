// The spinner shows only on a terminal and only for work that takes over a second (fake timers: no
// wall clock), and leaves the line clean.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { spin } from '../../cli/spinner.ts';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

function stream(isTTY: boolean) {
  const writes: string[] = [];
  return { isTTY, writes, write: (t: string) => writes.push(t) };
}

const doneAfter = (ms: number) => new Promise<string>((r) => setTimeout(() => r('done'), ms));

describe('spin', () => {
  it('draws on a terminal after a second, then clears its line', async () => {
    const s = stream(true);
    const work = spin('calling', doneAfter(2000), s);
    await vi.advanceTimersByTimeAsync(999);
    expect(s.writes).toEqual([]);
    await vi.advanceTimersByTimeAsync(1001);
    expect(await work).toBe('done');
    expect(s.writes.length).toBeGreaterThan(2);
    expect(s.writes[0]).toBe('\r| calling');
    expect(s.writes.at(-1)).toBe(`\r${' '.repeat(9)}\r`);
  });

  it('draws nothing for quick work, or when stderr is not a terminal', async () => {
    const quick = stream(true);
    const q = spin('calling', doneAfter(500), quick);
    await vi.advanceTimersByTimeAsync(3000);
    expect(await q).toBe('done');
    expect(quick.writes).toEqual([]);
    const pipe = stream(false);
    const p = spin('calling', doneAfter(5000), pipe);
    await vi.advanceTimersByTimeAsync(6000);
    expect(await p).toBe('done');
    expect(pipe.writes).toEqual([]);
  });

  it('clears its line when the work fails', async () => {
    const s = stream(true);
    const work = spin(
      'calling',
      doneAfter(1500).then(() => {
        throw new Error('no');
      }),
      s,
    );
    const caught = work.catch((e: Error) => e.message);
    await vi.advanceTimersByTimeAsync(2000);
    expect(await caught).toBe('no');
    expect(s.writes.at(-1)).toBe(`\r${' '.repeat(9)}\r`);
  });
});
