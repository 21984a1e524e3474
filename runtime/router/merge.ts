// Identical concurrent calls of one team (same capability, subject and options) share one upstream
// waterfall: the first caller runs it, the others wait for the same answer and are not charged again.
import { optionsKey, type RouteOptions } from './options.ts';

export class CallMerger<T> {
  /**
   * A null-prototype object (a hash table from the start), not a Map: V8 rehashes a Map whose table
   * has reached the old generation into new old-generation tables, and each table left behind still
   * points at the calls it held until the next full collection, so every call that passed through was
   * promoted with its request, answer and promises (about 1 KB a routed call at 32 connections, and
   * twice the scavenge time; bench/README.md).
   */
  private inFlight: Record<string, Promise<T>> = Object.create(null) as Record<string, Promise<T>>;

  /**
   * `answer` turns the work's outcome into the first caller's answer, `joined` that answer into the
   * answer of a caller who joined it. The call leaves the map in the same step as it is answered
   * (a failed waterfall's rejection is the callers' to see): one promise per call, not one for the
   * answer and a second for the cleanup.
   */
  run<W>(key: string, work: () => Promise<W>, answer: (outcome: W) => T, joined: (first: T) => T): Promise<T> {
    const existing = this.inFlight[key];
    if (existing) return existing.then(joined);
    const result = work().then((w) => { delete this.inFlight[key]; return answer(w); }, (e: unknown) => { delete this.inFlight[key]; throw e; });
    this.inFlight[key] = result;
    return result;
  }
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
