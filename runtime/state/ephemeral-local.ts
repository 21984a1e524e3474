// Short-lived shared state for one process: fixed-window counters, balance holds and expiring marks.
// Nothing here is stored: it describes work in flight, and a restart starts with none.
export class LocalEphemera {
  private windows = new Map<string, { end: number; count: number }>();
  private holds = new Map<string, AccountHolds>();
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
    const mine = this.holds.get(account);
    if (!mine) return 0;
    // The running total stands until the first hold expires (holds live minutes; calls, milliseconds),
    // so a check does not walk every hold in flight.
    if (mine.firstEnd <= this.now()) sweep(mine, this.now());
    return mine.total;
  }

  /** call only right after checking `held` against the balance, in the same turn */
  hold(account: string, id: string, amount: number, ttlMs: number): void {
    let mine = this.holds.get(account);
    if (!mine) this.holds.set(account, (mine = { byId: new Map(), total: 0, firstEnd: Infinity }));
    const end = this.now() + ttlMs;
    mine.total += amount - (mine.byId.get(id)?.amount ?? 0); // the same id again replaces its hold
    mine.byId.set(id, { amount, end });
    if (end < mine.firstEnd) mine.firstEnd = end;
  }

  /** how many holds of the account are in flight besides `id` (an expired one counts until it is swept) */
  othersHeld(account: string, id?: string): number {
    const mine = this.holds.get(account);
    if (!mine) return 0;
    return mine.byId.size - (id !== undefined && mine.byId.has(id) ? 1 : 0);
  }

  unhold(account: string, id: string): void {
    const mine = this.holds.get(account);
    const h = mine?.byId.get(id);
    if (!mine || !h) return;
    mine.byId.delete(id);
    mine.total -= h.amount;
    if (mine.byId.size === 0) this.holds.delete(account);
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

interface AccountHolds {
  byId: Map<string, { amount: number; end: number }>;
  /** the sum of the amounts in byId */
  total: number;
  /** no hold in byId ends before this */
  firstEnd: number;
}

/** drop the expired holds and work the total and the first end out again */
function sweep(mine: AccountHolds, t: number): void {
  mine.total = 0;
  mine.firstEnd = Infinity;
  for (const [id, h] of mine.byId) {
    if (h.end <= t) mine.byId.delete(id);
    else {
      mine.total += h.amount;
      if (h.end < mine.firstEnd) mine.firstEnd = h.end;
    }
  }
}
