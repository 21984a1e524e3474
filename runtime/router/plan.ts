// The pure planner: which children a call may try, in which order, with which key, at what worst
// cost, and why the others are left out. The same function answers dry runs and drives live calls.
import type { CapabilitySrc, Observed, OperationRuntime } from '../../language/types.ts';
import type { RouteOptions } from './options.ts';
import { usdPerHit } from './expected-cost.ts';
import { present } from '../../language/prepare-call.ts';
import { missMayCost, worstCostMicro } from '../../language/prices.ts';

export type ExcludeReason = 'no_identity' | 'excluded' | 'no_key' | 'over_ceiling' | 'strict_filter' | 'circuit_open';

export interface PlannedAttempt {
  endpoint_id: string;
  provider: string;
  key: 'own' | 'platform';
  worst_cost_micro: number;
  /** whether a miss of this child may be charged (a contract miss too, where the provider bills it): such children go after those whose misses are free */
  bills_miss: boolean;
  /** expected micro-USD per hit, for ordering */
  expected_micro: number;
  /** the last tie-break: the child's place among its siblings by their ids */
  tie: number;
}

export interface Plan {
  attempts: PlannedAttempt[];
  excluded: Array<{ endpoint_id: string; reason: ExcludeReason }>;
}

export interface PlanInput {
  capability: CapabilitySrc & { children: string[] };
  operations: Record<string, OperationRuntime>;
  /** the call's fields after derivation */
  fields: Record<string, unknown>;
  /** filters the caller sent explicitly */
  sentFilters: string[];
  limit: number;
  options: RouteOptions;
  ownKeys: ReadonlySet<string>;
  teamId: number;
  hasPlatformKey: (provider: string) => boolean;
  observed: (endpointId: string) => Observed | null;
  /** circuits, and own keys set aside after a 401/402/429 */
  health: { circuitOpen(endpointId: string): boolean; ownKeyCooling(teamId: number, provider: string): boolean };
}

export function plan(input: PlanInput): Plan {
  const { options, fields, ownKeys } = input;
  const { children, identities, likelyOrder } = childFactsOf(input.capability, input.operations);
  // whether the call fills each distinct identity list: most children of a capability share a few
  const identified = identities.map((sets) => sets.some((set) => set.every((f) => present(fields[f]))));
  const excluded: Plan['excluded'] = [];
  // the exclusions in the capability's order, the attempts in its likely order (below); both arrays
  // made at their final length, not grown by pushes
  const made = new Array<PlannedAttempt | null>(children.length);
  let planned = 0;
  for (let i = 0; i < children.length; i++) {
    const c = children[i];
    const own = ownKeys.has(c.provider) && !input.health.ownKeyCooling(input.teamId, c.provider);
    const worstOrWhy = leftOutFor(input, c, own, identified[c.identity]);
    if (typeof worstOrWhy === 'string') {
      excluded.push((c.left[worstOrWhy] ??= Object.freeze({ endpoint_id: c.id, reason: worstOrWhy })));
      made[i] = null;
      continue;
    }
    const observed = input.observed(c.id);
    made[i] =
      !own && observed === null
        ? platformAttempt(c, worstOrWhy)
        : attemptOf(c, own ? 'own' : 'platform', worstOrWhy, usdPerHit(worstOrWhy, observed) ?? Infinity);
    planned++;
  }
  const attempts = new Array<PlannedAttempt>(planned);
  let next = 0;
  for (const i of likelyOrder) {
    const a = made[i];
    if (a) attempts[next++] = a;
  }
  inOrder(attempts, options.prefer);
  return { attempts, excluded };
}

/**
 * What the planner needs of each child that does not change from call to call, worked out once per
 * capability: a plan looks at every child of a capability on every call (33 for people.email.find),
 * and in the real catalog most of them share one identity list.
 */
interface ChildFacts {
  id: string;
  op: OperationRuntime;
  provider: string;
  /** index into the capability's distinct identity lists */
  identity: number;
  billsMiss: boolean;
  ignores: readonly string[];
  /** the child's place among its siblings by `localeCompare` of their ids, the last tie-break */
  tie: number;
  /** the frozen exclusion entry for each reason it has been left out for, shared by every call */
  left: Partial<Record<ExcludeReason, Readonly<{ endpoint_id: string; reason: ExcludeReason }>>>;
  /** the frozen attempt with a platform key and no observations, at the worst cost it was last made for */
  platform: PlannedAttempt | null;
}

interface CapabilityFacts {
  operations: Record<string, OperationRuntime>;
  children: ChildFacts[];
  identities: string[][][];
  /**
   * the children's indices in the order a plan puts them when nothing of the call or the team moves
   * them (no own key, Prefer or measured hit rate, one row): the attempts are gathered in it, so the
   * sort that makes the order exact has little left to move
   */
  likelyOrder: number[];
}

/** keyed by the capability object, which belongs to one immutable runtime catalog */
const factsCache = new WeakMap<PlanInput['capability'], CapabilityFacts>();

function childFactsOf(capability: PlanInput['capability'], operations: Record<string, OperationRuntime>): CapabilityFacts {
  const known = factsCache.get(capability);
  if (known?.operations === operations) return known;
  const identities: string[][][] = [];
  /** each distinct identity list, by its JSON, to its index in `identities` */
  const identityOf = new Map<string, number>();
  const tieOf = new Map([...capability.children].sort((a, b) => a.localeCompare(b)).map((id, i) => [id, i]));
  const children = capability.children.map((id): ChildFacts => {
    const op = operations[id];
    const accepts = op.accepts ?? [];
    const signature = JSON.stringify(accepts);
    if (!identityOf.has(signature)) identityOf.set(signature, identities.push(accepts) - 1);
    return {
      id,
      op,
      provider: op.provider,
      identity: identityOf.get(signature)!,
      billsMiss: missMayCost(op),
      ignores: op.request?.ignores ?? [],
      tie: tieOf.get(id)!,
      left: {},
      platform: null,
    };
  });
  const listed = children.map(
    (c): Ordered => ({ key: 'platform', provider: c.provider, bills_miss: c.billsMiss, expected_micro: worstCostMicro(c.op, 1), tie: c.tie }),
  );
  const likelyOrder = listed.map((_, i) => i).sort((i, j) => before([], listed[i], listed[j]));
  const facts = { operations, children, identities, likelyOrder };
  factsCache.set(capability, facts);
  return facts;
}

/**
 * Sorted in place by insertion, stable as Array.prototype.sort is: the attempts come nearly in order
 * (likelyOrder), which insertion passes over once, where sort() makes its work state and copy on every
 * call (about 870 bytes at two attempts).
 */
function inOrder(attempts: PlannedAttempt[], prefer: string[]): void {
  for (let i = 1; i < attempts.length; i++) {
    const a = attempts[i];
    let j = i - 1;
    for (; j >= 0 && before(prefer, attempts[j], a) > 0; j--) attempts[j + 1] = attempts[j];
    attempts[j + 1] = a;
  }
}

type Ordered = Pick<PlannedAttempt, 'key' | 'provider' | 'bills_miss' | 'expected_micro' | 'tie'>;

/** own keys first, then the caller's preference, then free misses, then the cheapest per hit, then the id */
function before(prefer: string[], a: Ordered, b: Ordered): number {
  return (
    Number(b.key === 'own') - Number(a.key === 'own') ||
    preferRank(prefer, a.provider) - preferRank(prefer, b.provider) ||
    Number(a.bills_miss) - Number(b.bills_miss) ||
    a.expected_micro - b.expected_micro ||
    a.tie - b.tie
  );
}

/**
 * The least the first attempt a call makes may count against its ceiling: the cheapest planned
 * attempt's worst case (0 when nothing is planned, as nothing will be spent). The 402 sentence and a
 * batch row's budget both start from it.
 */
export function cheapestAttemptMicro(attempts: ReadonlyArray<Pick<PlannedAttempt, 'worst_cost_micro'>>): number {
  let least = attempts.length ? Infinity : 0;
  for (const a of attempts) if (a.worst_cost_micro < least) least = a.worst_cost_micro;
  return least;
}

// Module-level helpers rather than closures made per call: tsx names every named closure as it is
// made (keepNames), about 0.4 µs each, and the planner runs for every child of every call.

/** why a child cannot run in this call, checked in this order; its worst cost when it can */
function leftOutFor(input: PlanInput, c: ChildFacts, own: boolean, identified: boolean): ExcludeReason | number {
  const { options } = input;
  if (!identified) return 'no_identity';
  if (options.exclude.includes(c.provider)) return 'excluded';
  if (!own && !(c.op.platform_eligible && input.hasPlatformKey(c.provider))) return 'no_key';
  if (options.strictFilters && c.ignores.some((f) => input.sentFilters.includes(f))) return 'strict_filter';
  if (input.health.circuitOpen(c.id)) return 'circuit_open';
  const worst = worstCostMicro(c.op, input.limit);
  return worst > options.maxCostMicro ? 'over_ceiling' : worst;
}

/**
 * A platform-key attempt of a child without observations is the same on every call at the same worst
 * cost (its expected cost per hit is its list price): shared and frozen rather than made per call, as
 * most children of a capability keyed for many providers are (about 2 KB a call of 24 children).
 */
function platformAttempt(c: ChildFacts, worst: number): PlannedAttempt {
  const known = c.platform;
  if (known?.worst_cost_micro === worst) return known;
  c.platform = Object.freeze(attemptOf(c, 'platform', worst, worst));
  return c.platform;
}

function attemptOf(c: ChildFacts, key: PlannedAttempt['key'], worst: number, expected: number): PlannedAttempt {
  return { endpoint_id: c.id, provider: c.provider, key, worst_cost_micro: worst, bills_miss: c.billsMiss, expected_micro: expected, tie: c.tie };
}

function preferRank(prefer: string[], provider: string): number {
  const i = prefer.indexOf(provider);
  return i < 0 ? prefer.length : i;
}
