// Money held for attempts in flight, so concurrent calls of one team cannot together spend more than
// its balance: an attempt runs only if balance minus what is held covers its worst-case charge. The
// holds live in the state's atomics, so on a shared backend they count across every instance.
import { randomUUID } from 'node:crypto';
import { teamAccount as account, type State } from '../state/index.ts';

/** the longest a hold outlives an instance that died holding it */
export const HOLD_TTL_MS = 10 * 60_000;

export class Reservations {
  /** "team amount" → ids of this process's holds of that size (any one of them may be released) */
  private mine = new Map<string, Array<{ state: State; id: string }>>();

  async reserve(state: State, teamId: number, micro: number): Promise<boolean> {
    if (micro === 0) return true;
    const id = randomUUID();
    if (!(await state.atomics.hold(account(teamId), id, micro, HOLD_TTL_MS))) return false;
    const key = `${teamId} ${micro}`;
    const list = this.mine.get(key);
    if (list) list.push({ state, id });
    else this.mine.set(key, [{ state, id }]);
    return true;
  }

  release(teamId: number, micro: number): void {
    if (micro === 0) return;
    const key = `${teamId} ${micro}`;
    const list = this.mine.get(key);
    const hold = list?.pop();
    if (!list?.length) this.mine.delete(key);
    // a release that cannot reach storage leaves the hold to expire by itself (HOLD_TTL_MS)
    if (hold) hold.state.atomics.unhold(account(teamId), hold.id).catch(() => {});
  }
}
