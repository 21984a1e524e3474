// The atomic primitives every piece of state is built on. The embedded and memory backends implement
// them in-process (atomics-local.ts); a shared backend (Redis) implements the same interface with its
// own atomic operations (INCR, Lua), so callers never do read-modify-write on shared values themselves.
export type LedgerKind = 'charge' | 'credit' | 'earning';

/**
 * A charge whose provider stated what it billed (docs/routing.md, "Reported charges"): the catalog's
 * price for the attempt, and the provider's figure in micro-USD and as stated. Absent on every other
 * entry, and on the entries written before reports were kept (they read as they were written).
 */
export interface ReportedFigures {
  list_micro?: number;
  reported_micro?: number;
  reported_value?: number;
  reported_unit?: string;
}

export interface LedgerDraft extends ReportedFigures {
  kind: LedgerKind;
  /** signed: charges are negative; credits and earnings positive */
  amount_micro: number;
  endpoint_id?: string;
  call_id?: string;
  tool_id?: string;
}

export interface LedgerEntry extends LedgerDraft {
  /** increasing per account */
  id: number;
  at: string;
}

export interface Account {
  balance_micro: number;
  earnings_micro: number;
}

/** what a hold answers: whether it holds, and the balance it was decided against (holds aside) */
export interface HoldAnswer {
  held: boolean;
  balance_micro: number;
}

export interface Atomics {
  /** a unique, strictly increasing integer for `name` (1, 2, 3…) */
  nextId(name: string): Promise<number>;
  /** add `by` to an exact integer counter and answer the new value */
  incr(name: string, by?: number): Promise<number>;
  counter(name: string): Promise<number>;
  /**
   * Apply one ledger entry to an account and append it to the account's ledger in one step:
   * `charge` and `credit` move the balance, `earning` moves earnings. An entry that would take the
   * balance below zero, or a balance or earnings past Number.MAX_SAFE_INTEGER, is refused (null) and
   * nothing is written. With `unhold`, the account's hold of that id is dropped in the same step
   * once the entry is written (a charge settling the hold it was made under: one round trip where
   * storage is shared); a refused entry leaves the hold standing.
   */
  post(account: string, draft: LedgerDraft, unhold?: string): Promise<LedgerEntry | null>;
  /**
   * Give back up to `amount` of the `charge` entry `chargeId` of the account, as a `credit` entry
   * naming the charge's call_id (and endpoint_id or tool_id), in one step: never more than that
   * charge less what earlier refunds of it gave back, so a refund sent again gives nothing twice.
   * Null, and nothing written, when no such charge exists, nothing of it is left, or the balance
   * would pass Number.MAX_SAFE_INTEGER.
   */
  refund(account: string, chargeId: number, amount: number): Promise<LedgerEntry | null>;
  account(account: string): Promise<Account>;
  /** ledger entries newest first, starting below `before` (null: the newest) */
  entries(account: string, before: number | null, limit: number): Promise<{ entries: LedgerEntry[]; next: number | null }>;
  /** one record as last written (null: none) */
  get<T>(key: string): Promise<T | null>;
  /** serialised read-modify-write of one record; `fn` answers the new value (undefined: leave it) */
  update<T>(key: string, fn: (current: T | null) => T | undefined | Promise<T | undefined>): Promise<T | null>;
  /** write `value` only when `key` is free; false when it was taken */
  claim<T>(key: string, value: T): Promise<boolean>;
  /** drop one record (nothing to do when there is none) */
  remove(key: string): Promise<void>;
  /** the keys of every record under `prefix` (`a` lists `a:…`), in no set order */
  keys(prefix: string): Promise<string[]>;
  /**
   * Count one hit in the current fixed window of `name` (windows are `windowMs` long, starting at a
   * window's first hit): the hits so far in it, this one included, and the ms until it ends.
   */
  hit(name: string, windowMs: number): Promise<{ count: number; resetMs: number }>;
  /**
   * Hold `amount` of the account's balance for an attempt in flight, under `id`, for at most `ttlMs`
   * (a holder that dies cannot hold money for ever). False, and nothing held, when the balance minus
   * every live hold does not cover it. Answers the balance read in the same step, so a caller
   * that also needs the balance (a 402 before any child runs) reads it without a second round trip.
   */
  hold(account: string, id: string, amount: number, ttlMs: number): Promise<HoldAnswer>;
  unhold(account: string, id: string): Promise<void>;
  /** set an expiring flag every instance sees (open circuits, cooling keys); a later expiry wins */
  mark(name: string, ttlMs: number): Promise<void>;
  /** the live flags, each with the ms it has left */
  marks(): Promise<Map<string, number>>;
  /** finish pending writes (the ledger's, account checkpoints) before the process exits */
  flush(): Promise<void>;
  /**
   * Settle what can be of the posts whose answer was lost (Redis only: redis-doubts.ts); true when
   * none is left in doubt, so the ledger says what was charged and earned for good.
   */
  doubtsSettled(): Promise<boolean>;
}
