// A Map kept in near-recency order with a size bound: the oldest leaves first. A read moves its key
// to the end only once more than a quarter of the capacity of writes and moves came after it, so a
// hot key costs a plain lookup per read rather than a delete and re-insert (a rehash every few
// reads of a small map), and a key just read still outlives three quarters of the capacity of new
// writes. Below a capacity of 4 it is exact.
export class Lru<V> {
  private map = new Map<string, { value: V; moved: number }>();
  private clock = 0;

  constructor(private capacity: number) {}

  get(key: string): V | undefined {
    const hit = this.map.get(key);
    if (hit === undefined) return undefined;
    if (this.clock - hit.moved > this.capacity >> 2) {
      this.map.delete(key);
      hit.moved = ++this.clock;
      this.map.set(key, hit);
    }
    return hit.value;
  }

  set(key: string, value: V): V {
    this.map.delete(key);
    this.map.set(key, { value, moved: ++this.clock });
    if (this.map.size > this.capacity) this.map.delete(this.map.keys().next().value!);
    return value;
  }
}
