// Many waits on one timer, for waits that nearly always end long before their time (a provider's
// answer against its attempt timeout). A Node timer each costs more than it looks on one connection,
// where every call's timer is alone in its list: Node makes and drops the list, its place in the
// timer queue, and the loop's reference with each (bench/README.md, session 17). Here a wait is a
// Map entry, and the one timer is set again only when it fires or when a wait ends sooner than any.

/** What is told once when its time runs out. */
export interface Overdue {
  overdue(): void;
}

/** A clock tick's slack: Node's timers count whole milliseconds and may fire up to one early. */
const TICK_MS = 1;

export class Deadlines {
  /** each wait's deadline on performance.now()'s clock */
  private readonly waiting = new Map<Overdue, number>();
  private timer: NodeJS.Timeout | null = null;
  /** when the timer fires; Infinity while none is set */
  private armedFor = Infinity;

  /** `item` is told `overdue()` in `ms` unless it is ended first */
  start(item: Overdue, ms: number): void {
    const at = performance.now() + ms;
    this.waiting.set(item, at);
    if (at < this.armedFor) this.arm(at);
  }

  /** the wait ended in time; the timer is left as it is, to fire once and find nothing */
  end(item: Overdue): void {
    this.waiting.delete(item);
  }

  private arm(at: number): void {
    if (this.timer) clearTimeout(this.timer);
    this.armedFor = at;
    // unreferenced: a wait does not hold the process open (what it waits on does)
    this.timer = setTimeout(fire, Math.max(1, Math.ceil(at - performance.now())), this).unref();
  }

  /** tell every wait past its time, and set the timer for the next one */
  fired(): void {
    this.timer = null;
    this.armedFor = Infinity;
    const now = performance.now() + TICK_MS;
    let next = Infinity;
    for (const [item, at] of this.waiting) {
      if (at <= now) {
        this.waiting.delete(item);
        item.overdue();
      } else if (at < next) next = at;
    }
    if (next < this.armedFor) this.arm(next);
  }
}

function fire(deadlines: Deadlines): void {
  deadlines.fired();
}
