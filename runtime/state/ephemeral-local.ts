// Short-lived shared state for one process: fixed-window counters, balance holds and expiring marks.
// Nothing here is stored: it describes work in flight, and a restart starts with none.
export class LocalEphemera {
  private windows = new Map<string, { end: number; count: number }>();
  private holds = new Map<string, Map<string, { amount: number; end: number }>>();
  private flags = new Map<string, number>();

  constructor(private now: () => number = Date.now) {}

  hit(name: string, windowMs: number): { count: number; resetMs: number } {
    const t = this.now();
    let w = this.windows.get(name);
    if (!w || w.end <= t) {
      if (this.windows.size > 10_000) for (const [k, old] of this.windows) if (old.end <= t) this.windows.delete(k);
      this.windows.set(name, (w = { end: t + windowMs, count: 0 }));
    }
    w.count++;
    return { count: w.count, resetMs: w.end - t };
  }

  /** held: the account's live holds, after dropping expired ones */
  held(account: string): number {
    const t = this.now();
    let sum = 0;
    for (const [id, h] of this.holds.get(account) ?? []) {
      if (h.end <= t) this.holds.get(account)!.delete(id);
      else sum += h.amount;
    }
    return sum;
  }

  /** call only right after checking `held` against the balance, in the same turn */
  hold(account: string, id: string, amount: number, ttlMs: number): void {
    let mine = this.holds.get(account);
    if (!mine) this.holds.set(account, (mine = new Map()));
    mine.set(id, { amount, end: this.now() + ttlMs });
  }

  unhold(account: string, id: string): void {
    const mine = this.holds.get(account);
    mine?.delete(id);
    if (mine?.size === 0) this.holds.delete(account);
  }

  mark(name: string, ttlMs: number): void {
    this.flags.set(name, Math.max(this.flags.get(name) ?? 0, this.now() + ttlMs));
  }

  marks(): Map<string, number> {
    const t = this.now();
    const out = new Map<string, number>();
    for (const [name, end] of this.flags) {
      if (end <= t) this.flags.delete(name);
      else out.set(name, end - t);
    }
    return out;
  }
}
