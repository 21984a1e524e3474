// The current time as ISO text, formatted once per millisecond: ledger entries are stamped on every
// charge, and under load several fall in the same millisecond.
let lastMs = -1;
let lastIso = '';

export function nowIso(): string {
  const ms = Date.now();
  if (ms !== lastMs) {
    lastMs = ms;
    lastIso = new Date(ms).toISOString();
  }
  return lastIso;
}
