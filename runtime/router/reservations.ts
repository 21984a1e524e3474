// Money held for attempts in flight, so concurrent calls of one team cannot together spend more than
// its balance: an attempt runs only if balance minus what is held covers its worst-case charge.
import type { State } from '../state/index.ts';

export class Reservations {
  private held = new Map<number, number>();

  async reserve(state: State, teamId: number, micro: number): Promise<boolean> {
    if (micro === 0) return true;
    const balance = await state.balance(teamId);
    const held = this.held.get(teamId) ?? 0;
    if (balance - held < micro) return false;
    this.held.set(teamId, held + micro);
    return true;
  }

  release(teamId: number, micro: number): void {
    if (micro === 0) return;
    const left = (this.held.get(teamId) ?? 0) - micro;
    if (left > 0) this.held.set(teamId, left);
    else this.held.delete(teamId);
  }
}
