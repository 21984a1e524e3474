// Binary search over ascending number arrays (ledger chunk indexes).

/** index of the last element ≤ n in an ascending array, or -1 */
export function lastAtOrBelow(sorted: readonly number[], n: number): number {
  let lo = 0,
    hi = sorted.length - 1,
    found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid] <= n) {
      found = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return found;
}
