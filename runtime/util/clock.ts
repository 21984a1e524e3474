// The service's clock: Date.now unless a test has moved it (setClock), so time-bound rules (review
// months, pinning windows) are tested without waiting.
let source: () => number = Date.now;

/** epoch milliseconds on the service's clock */
export function now(): number {
  return source();
}

/** for tests: run the service's clock from `fn` (null: back to the system clock) */
export function setClock(fn: (() => number) | null): void {
  source = fn ?? Date.now;
}

/** the service's clock as ISO text */
export function nowIso(): string {
  return new Date(now()).toISOString();
}
