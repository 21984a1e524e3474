// A fixed-window limit per client: `perMinute` requests in each minute, then 429 with Retry-After.
// The windows are counted by the state's atomics, so on a shared backend (Redis) every instance
// counts against the same window and the limit holds however the load balancer spreads requests.
import type { Atomics } from '../state/atomics.ts';

const WINDOW_MS = 60_000;

export class RateLimit {
  constructor(
    private perMinute: number,
    private windows: Pick<Atomics, 'hit'>,
  ) {}

  /** seconds to wait, or 0 when the request may go ahead */
  async take(client: string): Promise<number> {
    const { count, resetMs } = await this.windows.hit(`find:${client}`, WINDOW_MS);
    return count > this.perMinute ? Math.max(1, Math.ceil(resetMs / 1000)) : 0;
  }
}
