// The one way svc spends a team's money on a call: check the balance covers a worst case, hold that
// worst case while the provider answers, charge what the answer costs, release the hold, pay a
// maker what a hub run earned. Routed, pass-through and hub calls (and batch) all spend through
// this, so the rules below hold for each: concurrent calls of one team never together spend more
// than its balance, and a call never reports a charge the ledger did not take.
import { randomUUID } from 'node:crypto';
import { teamAccount, type State } from './state/index.ts';

export interface ChargeRef {
  endpoint_id?: string;
  call_id?: string;
  tool_id?: string;
}

/** Money held for one attempt in flight; charge what it cost, then release (both at most once). */
export interface Hold {
  /**
   * Charge `micro` to the ledger; answers what was charged. Past the hold (a provider answering
   * more rows than were asked and held for) the charge falls back to the amount held when the
   * balance cannot cover more; a refusal within the hold is a broken invariant, said loudly, and
   * answered as 0 rather than reporting a charge that was not made.
   */
  charge(micro: number, ref: ChargeRef): Promise<number>;
  /** give the held amount back to what the team may spend */
  release(): void;
}

/** the longest a hold outlives an instance that died holding it */
export const HOLD_TTL_MS = 10 * 60_000;

export class Spending {
  constructor(private state: State) {}

  /** whether the balance covers `micro` (before any hold: the 402 checks made before calling out) */
  async covers(teamId: number, micro: number): Promise<boolean> {
    return (await this.state.balance(teamId)) >= micro;
  }

  /**
   * Hold `micro` for one attempt; null when the balance minus every live hold does not cover it. The
   * holds live in the state's atomics, so on a shared backend they count across every instance.
   */
  async hold(teamId: number, micro: number): Promise<Hold | null> {
    if (micro === 0) return new HeldMoney(this.state, teamId, 0, null);
    const id = randomUUID();
    if (!(await this.state.atomics.hold(teamAccount(teamId), id, micro, HOLD_TTL_MS))) return null;
    return new HeldMoney(this.state, teamId, micro, id);
  }

  /** Credit what a charge paid to the team that earned it (a hub tool's maker); 0 moves nothing. */
  async pay(teamId: number, micro: number, ref: { tool_id?: string; call_id?: string }): Promise<void> {
    if (micro > 0 && !(await this.state.earn(teamId, micro, ref))) process.stderr.write(`svc: earning of ${micro} micro-USD for team ${teamId} refused (past the largest amount svc keeps)\n`);
  }
}

/** A class, not closures made per call: tsx names every named closure as it is made, a cost on the hot path. */
class HeldMoney implements Hold {
  private released = false;

  constructor(private state: State, private teamId: number, private micro: number, private id: string | null) {}

  async charge(cost: number, ref: ChargeRef): Promise<number> {
    if (cost === 0 || (await this.state.charge(this.teamId, cost, ref))) return cost;
    if (cost > this.micro && this.micro > 0 && (await this.state.charge(this.teamId, this.micro, ref))) return this.micro;
    process.stderr.write(`svc: charge of ${cost} micro-USD for ${ref.endpoint_id ?? ref.tool_id ?? 'a call'} refused for team ${this.teamId} inside its hold; answered uncharged\n`);
    return 0;
  }

  release(): void {
    if (this.released || this.id === null) return;
    this.released = true;
    // a release that cannot reach storage leaves the hold to expire by itself (HOLD_TTL_MS)
    this.state.atomics.unhold(teamAccount(this.teamId), this.id).catch(() => {});
  }
}
