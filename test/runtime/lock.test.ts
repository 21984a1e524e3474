import { describe, expect, it } from 'vitest';
import { KeyedLock } from '../../runtime/state/lock.ts';

const tick = () => new Promise((r) => setTimeout(r, 1));

describe('KeyedLock', () => {
  it('runs one key in order, one at a time, other keys alongside, and goes on after a failure', async () => {
    const lock = new KeyedLock();
    const log: string[] = [];
    let inside = 0;
    let most = 0;
    const job = (key: string, name: string, fail = false) =>
      lock.run(key, async () => {
        inside++;
        most = Math.max(most, inside);
        log.push(`${name}+`);
        await tick();
        inside--;
        log.push(`${name}-`);
        if (fail) throw new Error(name);
        return name;
      });
    const results = await Promise.allSettled([job('a', 'a1'), job('a', 'a2', true), job('a', 'a3'), job('b', 'b1')]);
    expect(results.map((r) => (r.status === 'fulfilled' ? r.value : (r.reason as Error).message))).toEqual(['a1', 'a2', 'a3', 'b1']);
    const a = log.filter((l) => l.startsWith('a'));
    expect(a).toEqual(['a1+', 'a1-', 'a2+', 'a2-', 'a3+', 'a3-']);
    expect(log.indexOf('b1+')).toBeLessThan(log.indexOf('a1-')); // b did not wait for a
    expect(most).toBe(2);
    expect(await job('a', 'a4')).toBe('a4'); // the key is free again
  });
});
