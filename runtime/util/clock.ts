// The service's clock: Date.now unless a test has moved it (setClock), so time-bound rules (review
// months, pinning windows) are tested without waiting. The current time as ISO text is formatted
// once per millisecond: ledger entries are stamped on every charge, and under load several fall in
// the same millisecond.
let source: () => number = Date.now;
let lastMs = -1;
let lastIso = '';

/** epoch milliseconds on the service's clock */
export function now(): number {
  return source();
}

/** for tests: run the service's clock from `fn` (null: back to the system clock) */
export function setClock(fn: (() => number) | null): void {
  source = fn ?? Date.now;
}

export function nowIso(): string {
  const ms = now();
  if (ms !== lastMs) {
    lastMs = ms;
    lastIso = new Date(ms).toISOString();
  }
  return lastIso;
}
