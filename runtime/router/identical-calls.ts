// Identical concurrent calls of one team (same capability, subject and options) share one upstream
// waterfall: the first caller runs it, the others wait for the same answer and are not charged again.
import { optionsKey, type RouteOptions } from './options.ts';
import type { Gone } from './outcome.ts';

export class CallMerger<T> {
  /** the answer of each call in flight, by its merge key, and whether each of its callers has gone */
  private inFlight = new Map<string, { answer: Promise<T>; callers: Gone[] }>();

  /**
   * `answer` turns the work's outcome into the first caller's answer, `joined` that answer into the
   * answer of a caller who joined it. The work is told when every caller has gone (it then starts no
   * more paid attempts). The call leaves the map as it is answered (a failed waterfall's rejection
   * is the callers' to see).
   */
  run<W>(key: string, gone: Gone, work: (allGone: Gone) => Promise<W>, answer: (outcome: W) => T, joined: (first: T) => T): Promise<T> {
    const running = this.inFlight.get(key);
    if (running) {
      running.callers.push(gone);
      return running.answer.then(joined);
    }
    const callers = [gone];
    const result = work(() => callers.every((g) => g())).then(
      (w) => {
        this.inFlight.delete(key);
        return answer(w);
      },
      (e: unknown) => {
        this.inFlight.delete(key);
        throw e;
      },
    );
    this.inFlight.set(key, { answer: result, callers });
    return result;
  }
}

/** Canonical JSON: the same object with keys in any order gives the same text. */
export function canonical(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  const object = value as Record<string, unknown>;
  return `{${Object.keys(object)
    .sort()
    .map((k) => `${JSON.stringify(k)}:${canonical(object[k])}`)
    .join(',')}}`;
}

/** What makes two calls identical: team, capability, options, and the body whatever its key order. */
export function mergeKey(teamId: number, capability: string, body: unknown, options: RouteOptions): string {
  return `${teamId} ${capability} ${optionsKey(options)} ${canonical(body)}`;
}
