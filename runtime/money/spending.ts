// The one way svc spends a team's money on a call: hold a worst case while the provider answers
// (reading the balance in the same step, for the 402 made before anything runs), charge what the
// answer costs (dropping the hold in the same step), release a hold nothing was charged under, refund
// a charge, pay a maker what a hub run earned. Routed, pass-through, hub and batch calls all spend
// through spend() (hold, run, charge, release, in that order, whatever throws), and no other file
// moves a team's money on a call (test/layout/money-module.test.ts),
// so the rules below hold for each: concurrent calls of one team never together spend more than its
// balance, a call never reports a charge the ledger did not take, and a refund never gives back more
// than the charge it names. Where storage is shared, a paid attempt is two round trips: the hold and
// the charge.
import { teamAccount, type ReportedFigures, type State } from '../state/index.ts';
import { randomHex } from '../util/call-id.ts';

/** what a charge's ledger entry names: the call, what it called, and the provider's reported figures where it stated its charge */
export interface ChargeRef extends ReportedFigures {
  endpoint_id?: string;
  call_id?: string;
  tool_id?: string;
}

/** Money held for one attempt in flight; charge what it cost, or release it (both at most once). */
export interface Hold {
  /**
   * Charge `micro` to the ledger and drop the hold with it; answers what was charged. Past the hold
   * (a provider answering more rows than were asked and held for, or reporting a dearer charge) the
   * charge falls back to the amount held when the balance less what other calls hold cannot cover
   * more; a refusal within the hold is a broken invariant,
   * said loudly, and answered as 0 rather than reporting a charge that was not made.
   */
  charge(micro: number, ref: ChargeRef): Promise<number>;
  /** give the held amount back to what the team may spend (nothing to do once a charge dropped it) */
  release(): void;
}

/**
 * Why a reservation was refused: `short` when the balance itself is below the least the call needs
 * (nothing can run: 402), `held` when calls in flight hold what the balance lacks for this amount;
 * with the balance read in the same step, which the 402 sentence names.
 */
export interface Refusal {
  why: 'short' | 'held';
  balance_micro: number;
}

/** whether a reservation was refused (a Hold has no `why`) */
export const isRefusal = (r: Hold | Refusal): r is Refusal => 'why' in r;

/** One paid piece of work, as spend() runs it. */
export interface Spend<T> {
  teamId: number;
  /** the most the work may cost: held before it runs */
  worst: number;
  /** the least the call could cost (default `worst`): a balance below it is a `short` refusal */
  least?: number;
  ref: ChargeRef;
  /**
   * the work, run once the hold stands; answers its price (0: nothing to charge), its result, and
   * what only its answer tells (the figures a provider reported, the operation a pass-through was
   * charged as), which the charge's ledger entry keeps over `ref`'s
   */
  run: () => Promise<{ price: number; result: T; figures?: ChargeRef }>;
  /**
   * How the charge is made, for a door that must write something first (a hub run's earning due);
   * `charge` is the hold's own. Without it the hold charges directly.
   */
  charging?: (charge: () => Promise<number>, price: number) => Promise<number>;
}

/** what spend() came to: refused before anything ran, or run and charged `charged` */
export type Spent<T> = { refused: Refusal } | { charged: number; result: T };

/** the longest a hold outlives an instance that died holding it */
export const HOLD_TTL_MS = 10 * 60_000;

export class Spending {
  constructor(private state: State) {}

  /**
   * Hold `micro` for one attempt, or say why not. `least` (at most `micro`; the cheapest thing the
   * call could do) is checked against the balance read in the same step as the hold, so the 402
   * before anything runs costs no round trip of its own. The holds live in the state's atomics, so
   * on a shared backend they count across every instance.
   */
  reserve(teamId: number, micro: number, least = micro): Promise<Hold | Refusal> {
    if (micro === 0) return Promise.resolve(new HeldMoney(this.state, teamId, 0, null));
    const id = randomHex();
    // (Not async, here and in charge: each async step is a promise and a turn more on every paid attempt.)
    return this.state.atomics
      .hold(teamAccount(teamId), id, micro, HOLD_TTL_MS)
      .then(({ held, balance_micro }) =>
        held ? new HeldMoney(this.state, teamId, micro, id) : { why: balance_micro < least ? 'short' : 'held', balance_micro },
      );
  }

  /**
   * The one way a door spends: hold the worst case (or answer why not, running nothing), run the
   * work, charge what it says it cost, and release whatever the charge did not use, also when the
   * work or the charge throws.
   */
  async spend<T>(s: Spend<T>): Promise<Spent<T>> {
    const reserved = await this.reserve(s.teamId, s.worst, s.least ?? s.worst);
    if (isRefusal(reserved)) return { refused: reserved };
    try {
      const { price, result, figures } = await s.run();
      const ref = figures ? { ...s.ref, ...figures } : s.ref;
      const charge = () => reserved.charge(price, ref);
      const charged = price === 0 ? 0 : s.charging ? await s.charging(charge, price) : await charge();
      return { charged, result };
    } finally {
      reserved.release();
    }
  }

  /** Hold `micro` for one attempt; null when the balance minus every live hold does not cover it. */
  async hold(teamId: number, micro: number): Promise<Hold | null> {
    const reserved = await this.reserve(teamId, micro);
    return isRefusal(reserved) ? null : reserved;
  }

  /**
   * Give back up to `micro` of the team's charge entry `chargeId`, as a credit naming the charge's
   * call; answers what was given back: never more than the charge less earlier refunds of it, so the
   * same refund sent again gives 0 (no entry, no charge of that id, or nothing of it left).
   */
  async refund(teamId: number, chargeId: number, micro: number): Promise<number> {
    return (await this.state.atomics.refund(teamAccount(teamId), chargeId, micro))?.amount_micro ?? 0;
  }

  /** Credit what a charge paid to the team that earned it (a hub tool's maker); 0 moves nothing. */
  async pay(teamId: number, micro: number, ref: { tool_id?: string; call_id?: string }): Promise<void> {
    if (micro > 0 && !(await this.state.earn(teamId, micro, ref)))
      process.stderr.write(`svc: earning of ${micro} micro-USD for team ${teamId} refused (past the largest amount svc keeps)\n`);
  }
}

/** A class, not closures made per call: tsx names every named closure as it is made, a cost on the hot path. */
class HeldMoney implements Hold {
  private released = false;

  constructor(
    private state: State,
    private teamId: number,
    private micro: number,
    private id: string | null,
  ) {}

  charge(cost: number, ref: ChargeRef): Promise<number> {
    if (cost === 0) return Promise.resolve(0);
    if (cost > this.micro) return this.past(cost, ref);
    return this.within(cost, ref);
  }

  /**
   * A charge past the hold: the ledger refuses a charge only below a zero balance, so the excess is
   * held first, from what no other call holds; charged from money another call held, that call's
   * charge would be refused inside its own hold. Not held: the amount held is charged.
   */
  private async past(cost: number, ref: ChargeRef): Promise<number> {
    const account = teamAccount(this.teamId);
    const extra = randomHex();
    const { held } = await this.state.atomics.hold(account, extra, cost - this.micro, HOLD_TTL_MS);
    if (!held) return this.micro > 0 ? this.within(this.micro, ref) : 0;
    try {
      return await this.within(cost, ref);
    } finally {
      // dropped once the charge stood: until then the excess stays out of other calls' reach
      this.state.atomics.unhold(account, extra).catch(() => {});
    }
  }

  private within(cost: number, ref: ChargeRef): Promise<number> {
    return this.settle(cost, ref).then((landed) => (landed ? this.landed(cost) : this.refused(cost, ref)));
  }

  /** the charge and the hold's end in one step; a refused charge leaves the hold for release() */
  private settle(micro: number, ref: ChargeRef): Promise<boolean> {
    return this.state.charge(this.teamId, micro, ref, this.id ?? undefined);
  }

  private landed(charged: number): number {
    this.released = true;
    return charged;
  }

  /** past the hold, the amount held when the balance cannot cover more; a refusal within it is said loudly and answered as 0 */
  private async refused(cost: number, ref: ChargeRef): Promise<number> {
    if (cost > this.micro && this.micro > 0 && (await this.settle(this.micro, ref))) return this.landed(this.micro);
    process.stderr.write(
      `svc: charge of ${cost} micro-USD for ${ref.endpoint_id ?? ref.tool_id ?? 'a call'} refused for team ${this.teamId} inside its hold; answered uncharged\n`,
    );
    return 0;
  }

  release(): void {
    if (this.released || this.id === null) return;
    this.released = true;
    // a release that cannot reach storage leaves the hold to expire by itself (HOLD_TTL_MS)
    this.state.atomics.unhold(teamAccount(this.teamId), this.id).catch(() => {});
  }
}
