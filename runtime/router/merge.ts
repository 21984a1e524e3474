// Identical concurrent calls of one team (same capability, subject and options) share one upstream
// waterfall: the first caller runs it, the others wait for the same answer and are not charged again.
import { optionsKey, type RouteOptions } from './options.ts';

/** One call in flight; calls whose keys share a hash are chained. */
interface InFlight<T> {
  key: string;
  result: Promise<T>;
  next: InFlight<T> | undefined;
}

export class CallMerger<T> {
  /**
   * Keyed by a number hashed from the call's key, not by the key: a string used as a property name is
   * interned in V8's string table, and each call's key is new (a look-up, an insertion and, as the
   * table fills, its resizing, every call), while a number below 2^30 is an element index that stays
   * out of it. A null-prototype object, not a Map: V8 rehashes a Map whose table has reached the old
   * generation into new old-generation tables, and each table left behind still points at the calls
   * it held until the next full collection, so every call that passed through was promoted with its
   * request, answer and promises (about 1 KB a routed call at 32 connections; bench/README.md).
   */
  private inFlight: Record<number, InFlight<T> | undefined> = Object.create(null) as Record<number, InFlight<T> | undefined>;

  /**
   * `answer` turns the work's outcome into the first caller's answer, `joined` that answer into the
   * answer of a caller who joined it. The call leaves the table in the same step as it is answered
   * (a failed waterfall's rejection is the callers' to see): one promise per call, not one for the
   * answer and a second for the cleanup.
   */
  run<W>(key: string, work: () => Promise<W>, answer: (outcome: W) => T, joined: (first: T) => T): Promise<T> {
    const hash = keyHash(key);
    const first = this.inFlight[hash];
    for (let c = first; c; c = c.next) if (c.key === key) return c.result.then(joined);
    const call: InFlight<T> = { key, result: undefined as unknown as Promise<T>, next: first };
    call.result = work().then((w) => { this.leave(hash, call); return answer(w); }, (e: unknown) => { this.leave(hash, call); throw e; });
    this.inFlight[hash] = call;
    return call.result;
  }

  private leave(hash: number, call: InFlight<T>): void {
    let c = this.inFlight[hash];
    if (c === call) {
      if (call.next) this.inFlight[hash] = call.next;
      else delete this.inFlight[hash];
      return;
    }
    for (; c; c = c.next) if (c.next === call) { c.next = call.next; return; }
  }
}

/** FNV-1a over the key's UTF-16 code units, cut to 30 bits: a small integer, an element index (exported for the collision test) */
export function keyHash(key: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) h = Math.imul(h ^ key.charCodeAt(i), 0x01000193);
  return h >>> 2;
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
