// Live progress of `svc batch` on stderr when it is a terminal: rows done of total, hits, spend, rows a second.
import { usd } from './print.ts';

export class Progress {
  private done = 0;
  private hits = 0;
  private spentMicro = 0;
  private readonly start = Date.now();
  private last = 0;

  constructor(
    private total: number,
    private write: (text: string) => void,
    private tty: boolean,
  ) {}

  row(hit: boolean, costMicro: number): void {
    this.done++;
    if (hit) this.hits++;
    this.spentMicro += costMicro;
    if (this.tty && (Date.now() - this.last > 100 || this.done === this.total)) {
      this.last = Date.now();
      this.write(`\r${this.line()}   `);
    }
  }

  line(): string {
    const rate = this.done / Math.max((Date.now() - this.start) / 1000, 0.001);
    return `rows ${this.done}/${this.total}  hits ${this.hits}  spent ${usd(this.spentMicro)}  ${rate.toFixed(1)} rows/s`;
  }

  finish(extra: string): void {
    this.write(`${this.tty ? '\r' : ''}${this.line()}${extra}\n`);
  }
}
