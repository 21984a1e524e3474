// The whole batch's ceiling (X-Svc-Batch-Max-Cost). A row starts only once its worst case is
// reserved, so rows in flight together can never pass it; what a row did not spend comes back.
export class BatchBudget {
  private inFlight = 0;
  private waiters: Array<() => void> = [];

  constructor(private leftMicro: number) {}

  /**
   * Reserve `micro` for one row. While other rows are in flight it waits for them to give back what
   * they did not spend; with none in flight and too little left it answers false (the row is skipped).
   */
  async reserve(micro: number): Promise<boolean> {
    while (micro > this.leftMicro) {
      if (this.inFlight === 0) return false;
      await new Promise<void>((wake) => this.waiters.push(wake));
    }
    this.leftMicro -= micro;
    this.inFlight++;
    return true;
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
