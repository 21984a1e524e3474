// A Map kept in recency order with a size bound: a read moves the key to the end, the oldest leaves first.
export class Lru<V> {
  private map = new Map<string, V>();

  constructor(private capacity: number) {}

  get(key: string): V | undefined {
    const hit = this.map.get(key);
    if (hit !== undefined) { this.map.delete(key); this.map.set(key, hit); }
    return hit;
  }

  set(key: string, value: V): V {
    this.map.delete(key);
    this.map.set(key, value);
    if (this.map.size > this.capacity) this.map.delete(this.map.keys().next().value!);
    return value;
  }
}
