// A fixed-window limit per client: `perMinute` requests in each minute, then 429 with Retry-After.
// In-process: each instance counts its own clients.
export class RateLimit {
  private windows = new Map<string, { start: number; count: number }>();

  constructor(private perMinute: number, private now: () => number = Date.now) {}

  /** seconds to wait, or 0 when the request may go ahead */
  take(client: string): number {
    const t = this.now();
    let w = this.windows.get(client);
    if (!w || t - w.start >= 60_000) {
      if (this.windows.size > 10_000) this.prune(t);
      w = { start: t, count: 0 };
      this.windows.set(client, w);
    }
    if (w.count >= this.perMinute) return Math.max(1, Math.ceil((w.start + 60_000 - t) / 1000));
    w.count++;
    return 0;
  }

  private prune(t: number): void {
    for (const [k, w] of this.windows) if (t - w.start >= 60_000) this.windows.delete(k);
  }
}
