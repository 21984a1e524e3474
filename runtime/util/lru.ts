// A Map with a size bound, in recency order: a read moves its key to the end, and past the
// capacity the least recently used leaves first (a Map iterates in insertion order). With a weight
// per value (bytes, say) the total weight is bounded too; the newest value stays, however heavy.
export class Lru<V> {
  private map = new Map<string, V>();
  private total = 0;

  constructor(
    private capacity: number,
    private weigh: (value: V) => number = () => 0,
    private maxWeight = Number.POSITIVE_INFINITY,
  ) {}

  get(key: string): V | undefined {
    if (!this.map.has(key)) return undefined;
    const value = this.map.get(key) as V;
    this.map.delete(key);
    this.map.set(key, value);
    return value;
  }

  set(key: string, value: V): V {
    this.drop(key);
    this.map.set(key, value);
    this.total += this.weigh(value);
    while (this.map.size > this.capacity || (this.total > this.maxWeight && this.map.size > 1)) this.drop(this.map.keys().next().value!);
    return value;
  }

  /** the summed weight of the values held */
  get weight(): number {
    return this.total;
  }

  private drop(key: string): void {
    if (!this.map.has(key)) return;
    this.total -= this.weigh(this.map.get(key) as V);
    this.map.delete(key);
  }
}
