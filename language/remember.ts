// Memo for values worked out from catalog data or configuration (parsed paths, resolved URLs, key
// forms): few distinct inputs, read on every call. Bounded by starting over, which costs one
// recomputation each, rather than by recency, which would cost a reordering on every read.
export class Remembered<V> {
  private map = new Map<string, V>();

  constructor(
    private capacity: number,
    private compute: (key: string) => V,
  ) {}

  get(key: string): V {
    let v = this.map.get(key);
    if (v === undefined && !this.map.has(key)) {
      if (this.map.size >= this.capacity) this.map.clear();
      v = this.compute(key);
      this.map.set(key, v);
    }
    return v as V;
  }
}

/** Memo per object (a capability, a request mapping of the loaded catalog), kept while the object lives. */
export function perObject<K extends object, V>(compute: (key: K) => V): (key: K) => V {
  const memo = new WeakMap<K, V>();
  return (key) => {
    let v = memo.get(key);
    if (v === undefined) memo.set(key, (v = compute(key)));
    return v;
  };
}
