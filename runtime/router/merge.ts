// Identical concurrent calls of one team (same capability, subject and options) share one upstream
// waterfall: the first caller runs it, the others wait for the same answer and are not charged again.
import { optionsKey, type RouteOptions } from './options.ts';

/** One call in flight; calls whose keys fall in the same bucket are chained. */
interface InFlight<T> {
  key: string;
  hash: number;
  result: Promise<T>;
  next: InFlight<T> | undefined;
}

export class CallMerger<T> {
  /**
   * A hash table of its own, buckets in an array indexed by a hash of the call's key. Not the key as
   * a property name: a string used as one is interned in V8's string table, and each call's key is
   * new (a look-up, an insertion and, as the table fills, its resizing, every call); an object's
   * integer keys are stored and deleted through V8's runtime. Not a Map: V8 rehashes a Map whose
   * table has reached the old generation into new old-generation tables, and each table left behind
   * still points at the calls it held until the next full collection, so every call that passed
   * through was promoted with its request, answer and promises (about 1 KB a routed call at 32
   * connections; bench/README.md). This array is replaced only when it doubles.
   */
  private buckets: Array<InFlight<T> | undefined> = new Array<InFlight<T> | undefined>(64).fill(undefined);
  private count = 0;

  /**
   * `answer` turns the work's outcome into the first caller's answer, `joined` that answer into the
   * answer of a caller who joined it. The call leaves the table in the same step as it is answered
   * (a failed waterfall's rejection is the callers' to see): one promise per call, not one for the
   * answer and a second for the cleanup.
   */
  run<W>(key: string, work: () => Promise<W>, answer: (outcome: W) => T, joined: (first: T) => T): Promise<T> {
    const hash = keyHash(key);
    const slot = hash & (this.buckets.length - 1);
    for (let c = this.buckets[slot]; c; c = c.next) if (c.hash === hash && c.key === key) return c.result.then(joined);
    const call: InFlight<T> = { key, hash, result: undefined as unknown as Promise<T>, next: this.buckets[slot] };
    call.result = work().then((w) => { this.leave(call); return answer(w); }, (e: unknown) => { this.leave(call); throw e; });
    this.buckets[slot] = call;
    if (++this.count > this.buckets.length) this.grow();
    return call.result;
  }

  /**
   * Out of its chain, and its own link cut: a finished call that a collection has not yet found dead
   * (one promoted while a slow provider answered) must not keep the call chained behind it alive.
   */
  private leave(call: InFlight<T>): void {
    const slot = call.hash & (this.buckets.length - 1);
    this.count--;
    if (this.buckets[slot] === call) this.buckets[slot] = call.next;
    else for (let c = this.buckets[slot]; c; c = c.next) if (c.next === call) { c.next = call.next; break; }
    call.next = undefined;
  }

  /** twice the buckets once there are more calls in flight than buckets */
  private grow(): void {
    const old = this.buckets;
    this.buckets = new Array<InFlight<T> | undefined>(old.length * 2).fill(undefined);
    for (let c of old) {
      while (c) {
        const next = c.next;
        const slot = c.hash & (this.buckets.length - 1);
        c.next = this.buckets[slot];
        this.buckets[slot] = c;
        c = next;
      }
    }
  }
}

/** FNV-1a over the key's UTF-16 code units, as an unsigned 32-bit integer (exported for the collision test) */
export function keyHash(key: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) h = Math.imul(h ^ key.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/** Canonical JSON: the same object with keys in any order gives the same text. */
export function canonical(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  let out: string;
  if (Array.isArray(value)) {
    out = '[';
    for (let i = 0; i < value.length; i++) out += (i ? ',' : '') + canonical(value[i]);
    return `${out}]`;
  }
  const keys = Object.keys(value).sort();
  out = '{';
  for (let i = 0; i < keys.length; i++) out += `${i ? ',' : ''}${JSON.stringify(keys[i])}:${canonical((value as Record<string, unknown>)[keys[i]])}`;
  return `${out}}`;
}

/** What makes two calls identical: team, capability, options, and the body whatever its key order. */
export function mergeKey(teamId: number, capability: string, body: unknown, options: RouteOptions): string {
  return `${teamId} ${capability} ${optionsKey(options)} ${canonical(body)}`;
}
