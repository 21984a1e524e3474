import { describe, expect, it } from 'vitest';
import { Lru } from '../../runtime/util/lru.ts';

describe('Lru', () => {
  it('keeps at most its capacity, dropping the least recently used', () => {
    const c = new Lru<number>(2);
    c.set('a', 1);
    c.set('b', 2);
    expect(c.get('a')).toBe(1); // a is now the most recent
    c.set('c', 3);
    expect(c.get('b')).toBeUndefined();
    expect([c.get('a'), c.get('c')]).toEqual([1, 3]);
    expect(c.set('a', 9)).toBe(9);
    expect(c.get('a')).toBe(9);
  });

  it('keeps a key read on every call while new keys stream past it', () => {
    const c = new Lru<number>(100);
    c.set('hot', 1);
    for (let i = 0; i < 1_000; i++) {
      c.set(`k${i}`, i);
      expect(c.get('hot')).toBe(1);
    }
    expect(c.get('k0')).toBeUndefined(); // the cold ones did leave
    expect(c.get('k999')).toBe(999);
  });
});

describe('Lru with a weight bound', () => {
  it('drops the least recently used while the summed weight is over the bound, keeping the newest however heavy', () => {
    const c = new Lru<Buffer>(100, (b) => b.length, 10);
    c.set('a', Buffer.alloc(4));
    c.set('b', Buffer.alloc(4));
    expect(c.weight).toBe(8);
    expect(c.get('a')?.length).toBe(4); // a is now the most recent
    c.set('c', Buffer.alloc(4));
    expect(c.get('b')).toBeUndefined();
    expect(c.weight).toBe(8);
    c.set('a', Buffer.alloc(6)); // replacing a value counts its new weight only
    expect(c.weight).toBe(10);
    c.set('huge', Buffer.alloc(50));
    expect([c.get('a'), c.get('c')]).toEqual([undefined, undefined]);
    expect(c.get('huge')?.length).toBe(50);
    expect(c.weight).toBe(50);
  });
});
