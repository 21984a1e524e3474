// A Map with a size bound, in recency order: a read moves its key to the end, and past the
// capacity the least recently used leaves first (a Map iterates in insertion order).
export class Lru<V> {
  private map = new Map<string, V>();

  constructor(private capacity: number) {}

  get(key: string): V | undefined {
    if (!this.map.has(key)) return undefined;
    const value = this.map.get(key) as V;
    this.map.delete(key);
    this.map.set(key, value);
    return value;
  }

  set(key: string, value: V): V {
    this.map.delete(key);
    this.map.set(key, value);
    if (this.map.size > this.capacity) this.map.delete(this.map.keys().next().value!);
    return value;
  }
}
