// Per-key lock: read-modify-write sequences on one key run one after another in this process, in
// the order they asked. A key nobody holds costs no queue; waiters are woken one at a time.
export class KeyedLock {
  private waiting = new Map<string, Array<() => void>>();

  async run<T>(key: string, fn: () => Promise<T>): Promise<T> {
    const queue = this.waiting.get(key);
    if (queue) await new Promise<void>((wake) => queue.push(wake));
    else this.waiting.set(key, []);
    try {
      return await fn();
    } finally {
      // hand the key to the next waiter (it stays held), or free it
      const next = this.waiting.get(key)!.shift();
      if (next) next();
      else this.waiting.delete(key);
    }
  }
}
