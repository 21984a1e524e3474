// Identical concurrent calls of one team (same capability, subject and options) share one upstream
// waterfall: the first caller runs it, the others wait for the same answer and are not charged again.
export class CallMerger<T> {
  private inFlight = new Map<string, Promise<T>>();

  run(key: string, work: () => Promise<T>): Promise<T> {
    const existing = this.inFlight.get(key);
    if (existing) return existing;
    const result = work().finally(() => this.inFlight.delete(key));
    this.inFlight.set(key, result);
    return result;
  }
}

/** Canonical JSON: the same object with keys in any order gives the same text. */
export function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    return `{${Object.keys(value).sort().map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}
