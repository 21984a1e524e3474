// The service's clock: Date.now unless a test has moved it (setClock), so time-bound rules (review
// months, pinning windows) are tested without waiting. The current time as ISO text: ledger entries
// are stamped on every charge, several in each millisecond under load, and Date's own formatting is
// slow in the server (about 1 µs of a routed call's CPU, bench/README.md), so the text is made once
// per millisecond, and Date formats only the second.
let source: () => number = Date.now;
let lastMs = -1;
let lastIso = '';
let lastSecond = Number.NaN;
/** the ISO text of `lastSecond` up to its milliseconds: `2026-11-26T13:36:05.` */
let secondIso = '';

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
    const second = Math.floor(ms / 1000);
    if (second !== lastSecond) {
      lastSecond = second;
      secondIso = new Date(second * 1000).toISOString().slice(0, -4);
    }
    lastIso = `${secondIso}${String(ms - second * 1000).padStart(3, '0')}Z`;
  }
  return lastIso;
}
