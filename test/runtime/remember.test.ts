import { describe, expect, it } from 'vitest';
import { perObject, Remembered } from '../../language/remember.ts';

describe('Remembered', () => {
  it('computes a key once, null included, and starts over past its capacity', () => {
    const calls: string[] = [];
    const m = new Remembered<string | null>(2, (k) => {
      calls.push(k);
      return k === 'none' ? null : k.toUpperCase();
    });
    expect([m.get('a'), m.get('a'), m.get('none'), m.get('none')]).toEqual(['A', 'A', null, null]);
    expect(calls).toEqual(['a', 'none']);
    m.get('b'); // a third key: the memo is cleared first, then holds only b
    m.get('a');
    expect(calls).toEqual(['a', 'none', 'b', 'a']);
  });

  it('perObject computes once per object, apart for each object', () => {
    let calls = 0;
    const size = perObject((o: { items: number[] }) => {
      calls++;
      return o.items.length;
    });
    const a = { items: [1, 2] };
    const b = { items: [1, 2, 3] };
    expect([size(a), size(a), size(b), size(a)]).toEqual([2, 2, 3, 2]);
    expect(calls).toBe(2);
  });
});
