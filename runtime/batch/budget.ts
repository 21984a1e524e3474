// The whole batch's ceiling (X-Svc-Batch-Max-Cost). A row starts only once its reservation is taken,
// and runs with that reservation as its ceiling, so rows in flight together can never pass it; what
// a row did not spend comes back.
export class BatchBudget {
  private inFlight = 0;
  private waiters: Array<() => void> = [];

  constructor(private leftMicro: number) {}

  /**
   * Reserve up to `worstMicro` for one row, less when less is left, but never below `leastMicro` (its
   * cheapest first attempt: under that the row could try nothing). While other rows are in flight it
   * waits for them to give back what they did not spend; with none in flight and less than
   * `leastMicro` left it answers null (the row is skipped). Otherwise it answers what it reserved.
   */
  async reserve(leastMicro: number, worstMicro: number): Promise<number | null> {
    while (leastMicro > this.leftMicro) {
      if (this.inFlight === 0) return null;
      await new Promise<void>((wake) => this.waiters.push(wake));
    }
    const micro = Math.min(worstMicro, this.leftMicro);
    this.leftMicro -= micro;
    this.inFlight++;
    return micro;
  }

  /** the row is done: it spent `spentMicro` of the `reservedMicro` it held */
  settle(reservedMicro: number, spentMicro: number): void {
    this.leftMicro += reservedMicro - spentMicro;
    this.inFlight--;
    const waiting = this.waiters;
    this.waiters = [];
    for (const wake of waiting) wake();
  }
}
