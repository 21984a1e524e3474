// The executor: runs a plan's attempts in order (the waterfall), decides hit/miss/error, charges by
// each child's billing rule within the cost ceiling, verifies hits where asked, and records every
// attempt. Pure decisions live in plan.ts and classify.ts; this file is the loop around them.
import type { CapabilitySrc, Observed, OperationRuntime, RuntimeCatalog } from '../../language/types.ts';
import type { State, Team } from '../state/index.ts';
import { cheapestAttemptMicro, plan, type Plan, type PlannedAttempt } from './plan.ts';
import { prepareCall, type PreparedCall } from '../../language/prepare-call.ts';
import { buildChildRequest, type OutgoingRequest } from './build-request.ts';
import { send, type ChildAnswer } from './http.ts';
import { chargedAs, classifyRecord, classifyStatus, KEY_TROUBLE, type Verdict } from './classify.ts';
import { pollJob } from './poll.ts';
import { missOutput } from '../../language/map-response.ts';
import { platformKey, type Env } from '../../language/provider-auth.ts';
import { redact } from './redact.ts';
import { tokens, TokenRefused } from './token-exchange.ts';
import { attemptChargeMicro } from '../../language/prices.ts';
import { decideCharge, ledgerFigures, type ChargeDecision, type ReportedCharge } from '../../language/reported-charge.ts';
import type { Health } from './health.ts';
import type { RouteOptions } from './options.ts';
import type { Refusal, Spending } from '../money/spending.ts';
import { DEFAULT_TIMEOUT_MS } from '../../language/route-options.ts';
import { isStorageOutage } from '../state/unavailable.ts';

export interface RouterDeps {
  runtime: RuntimeCatalog;
  env: Env;
  state: State;
  health: Health;
  spending: Spending;
  observed: (endpointId: string) => Observed | null;
  /** whether svc holds a platform key for a provider (made once per router) */
  hasPlatformKey: (provider: string) => boolean;
  attemptTimeoutMs: number;
  /** the largest provider answer read (SVC_MAX_ANSWER_BYTES); a larger one is an error */
  maxAnswerBytes: number;
  pollIntervalMaxMs: number | null;
}

export interface Tried {
  endpoint_id: string;
  outcome: 'hit' | 'miss' | 'error' | 'skipped';
  reason?: string;
  status?: number;
  ms: number;
  cost_micro: number;
  /** 'own' on an attempt made with the team's own key: its cost_micro counts in the call's, but the provider bills the team, not the balance */
  key?: 'own';
  /** where the provider's answer stated its charge: the catalog's price for the attempt, beside `reported` */
  list_micro?: number;
  /** the provider's own figure (cost.reported_charge), which cost_micro follows */
  reported?: ReportedCharge;
  /** the reported figure passed what the call's ceiling left for this attempt: billed this, no more */
  cap_micro?: number;
}

export interface Verification {
  verdict: 'valid' | 'invalid' | 'unknown';
  checked: unknown;
  served_by: string | null;
  cost_micro: number;
}

export interface RouteOutcome {
  kind: 'hit' | 'miss' | 'error' | 'unfillable' | 'strict' | 'broke' | 'dry_run';
  output: Readonly<Record<string, unknown>>;
  /** the serving child's answer as JSON text, key redacted ('null' when there is none) */
  raw: string;
  served_by: string | null;
  tried: Tried[];
  cost_micro: number;
  stopped?: 'max_cost' | 'deadline' | 'balance' | 'no_eligible_child' | 'final_miss' | 'storage';
  verification?: Verification;
  ignored_filters: string[];
  plan: Plan;
  /** the cheapest attempt's worst charge to the balance, and the balance, for the 402 sentence */
  needed_micro?: number;
  balance_micro?: number;
  /** a dry run with verification on: what each verification may cost at worst */
  verifier?: { capability: string; worst_cost_micro: number };
}

export interface RouteCall {
  team: Team;
  capability: string;
  body: Record<string, unknown>;
  options: RouteOptions;
  callId: string;
}

type Cap = CapabilitySrc & { children: string[] };

const skipped = (endpoint_id: string, reason: string): Tried => ({ endpoint_id, outcome: 'skipped', reason, ms: 0, cost_micro: 0 });

/** Children the plan left out for the ceiling or an open circuit: attempts in all but name. */
function skippedByPlan(p: Plan): Tried[] | null {
  let skips: Tried[] | null = null;
  for (const e of p.excluded) if (e.reason === 'over_ceiling' || e.reason === 'circuit_open') (skips ??= []).push(skipped(e.endpoint_id, e.reason));
  return skips;
}

/** Why a call that ran no child stopped, from what its attempts were skipped for. */
function stoppedBy(tried: Tried[]): RouteOutcome['stopped'] {
  const reasons = new Set(tried.map((t) => t.reason));
  return reasons.has('over_ceiling') ? 'max_cost' : reasons.has('deadline') ? 'deadline' : reasons.has('balance') ? 'balance' : 'no_eligible_child';
}

export async function routeCall(deps: RouterDeps, call: RouteCall): Promise<RouteOutcome> {
  const cap = deps.runtime.capabilities[call.capability] as Cap;
  const prepared = prepareCall(cap, call.body);
  const ownKeys: ReadonlySet<string> = deps.state.knownOwnKeyProviders(call.team.id) ?? new Set(await deps.state.ownKeyProviders(call.team.id));
  const thePlan = plan({
    capability: cap, operations: deps.runtime.operations, fields: prepared.fields, sentFilters: prepared.sentFilters,
    limit: prepared.limit, options: call.options, ownKeys, teamId: call.team.id,
    hasPlatformKey: deps.hasPlatformKey, observed: deps.observed, health: deps.health,
  });
  const base = { output: missOutput(cap), raw: 'null', served_by: null, tried: [] as Tried[], cost_micro: 0, ignored_filters: [] as string[], plan: thePlan };
  if (!thePlan.attempts.length) {
    const reasons = new Set(thePlan.excluded.map((e) => e.reason));
    if (reasons.size === 1 && reasons.has('no_identity')) return { ...base, kind: 'unfillable' };
    if (call.options.strictFilters && reasons.has('strict_filter')) {
      const left = new Set(thePlan.excluded.filter((e) => e.reason === 'strict_filter').map((e) => e.endpoint_id));
      const unapplied = prepared.sentFilters.filter((f) => [...left].some((id) => deps.runtime.operations[id].request?.ignores?.includes(f)));
      return { ...base, kind: 'strict', ignored_filters: unapplied };
    }
    // a dry run refuses what the call refuses (above), and otherwise answers the plan
    if (call.options.dryRun) return dryRun(deps, call, cap, ownKeys, base);
    // Nothing could run: every child is listed with the reason it was left out.
    const tried = thePlan.excluded.map((e) => skipped(e.endpoint_id, e.reason));
    return { ...base, kind: 'miss', stopped: stoppedBy(tried), tried };
  }
  if (call.options.dryRun) return dryRun(deps, call, cap, ownKeys, base);
  const t0 = Date.now();
  const o = await waterfall(deps, call, cap, prepared, base);
  // the routed entry's own figures (svc.<capability>): one sample per call that tried a child,
  // its outcome the call's, its latency the whole waterfall's and its cost what the call cost the caller
  if (o.tried.some((t) => t.outcome !== 'skipped')) deps.state.recordAttempt(`svc.${call.capability}`, { outcome: o.kind === 'hit' ? 'hit' : o.kind === 'miss' ? 'miss' : 'error', ms: Date.now() - t0, at: Date.now(), paid_micro: o.cost_micro });
  return o;
}

type Ending = Partial<Pick<RouteOutcome, 'output' | 'raw' | 'served_by' | 'ignored_filters' | 'stopped' | 'verification'>>;

/**
 * Every way a call ends: the attempts, plus the children the plan skipped for the ceiling or a
 * circuit. A module function, not a closure per call (tsx names each closure as it is made).
 */
function finished(base: Omit<RouteOutcome, 'kind'>, tried: Tried[], spent: number, kind: 'hit' | 'miss' | 'error', extra: Ending | null = null): RouteOutcome {
  const skips = skippedByPlan(base.plan);
  // Built field by field: spreading objects of varying shapes was a hot spot under load.
  return {
    kind, output: extra?.output ?? base.output, raw: extra?.raw ?? base.raw, served_by: extra?.served_by ?? null,
    tried: skips ? tried.concat(skips) : tried, cost_micro: spent, ignored_filters: extra?.ignored_filters ?? base.ignored_filters,
    plan: base.plan, stopped: extra?.stopped, verification: extra?.verification,
  };
}

async function waterfall(deps: RouterDeps, call: RouteCall, cap: Cap, prepared: PreparedCall, base: Omit<RouteOutcome, 'kind'>): Promise<RouteOutcome> {
  // the caller's deadline: no attempt starts after it (one already sent runs to its end: attempt())
  const deadline = Date.now() + call.options.timeoutMs;
  const tried: Tried[] = [];
  let spent = 0;
  let anyMiss = false;
  /** misses that cost something, against the capability's misses.billed_at_most */
  let paidMisses = 0;
  const planned = base.plan.attempts;
  // With no own key in the plan, the first attempt's hold reads the balance too: one round trip for
  // the 402 (the balance below the cheapest attempt) and the hold.
  const least = planned.some((a) => a.key === 'own') ? null : cheapestAttemptMicro(planned);
  /** an own-key attempt the provider refused, to be made again at once with the platform key */
  let retry: PlannedAttempt | null = null;
  for (let i = 0; i < planned.length || retry;) {
    const a: PlannedAttempt = retry ?? planned[i++];
    retry = null;
    const op = deps.runtime.operations[a.endpoint_id];
    if (Date.now() >= deadline) { tried.push(skipped(a.endpoint_id, 'deadline')); continue; }
    if (spent + a.worst_cost_micro > call.options.maxCostMicro) { tried.push(skipped(a.endpoint_id, 'over_ceiling')); continue; }
    if (a.bills_miss && paidMisses >= (cap.misses?.billed_at_most ?? Infinity)) { tried.push(skipped(a.endpoint_id, 'billed_miss_limit')); continue; }
    try {
      const made = await paidAttempt(deps, call, cap, a, prepared, least !== null && a === planned[0] ? least : undefined, call.options.maxCostMicro - spent);
      if ('why' in made) {
        // every attempt listed as skipped for the balance: what a verification refused this way shows
        if (made.why === 'short' && a === planned[0] && least !== null) {
          return { ...base, kind: 'broke', needed_micro: least, balance_micro: made.balance_micro, stopped: 'balance', tried: planned.map((p) => skipped(p.endpoint_id, 'balance')) };
        }
        tried.push(skipped(a.endpoint_id, 'balance'));
        continue;
      }
      const { verdict, status, ms, raw, cost, listed, decided } = made;
      spent += cost;
      deps.state.recordAttempt(a.endpoint_id, { outcome: verdict.outcome, ms, at: Date.now(), charge: decided?.reported ? { list_micro: listed, reported_micro: decided.reported.micro } : undefined });
      deps.health.record(a.endpoint_id, verdict.outcome);
      // undefined fields are left out of the JSON answer
      const entry: Tried = { endpoint_id: a.endpoint_id, outcome: verdict.outcome, reason: verdict.outcome === 'hit' ? undefined : verdict.reason, status: status || undefined, ms, cost_micro: cost, key: a.key === 'own' ? 'own' : undefined };
      if (decided?.reported) Object.assign(entry, { list_micro: listed, reported: decided.reported, cap_micro: decided.cap_micro });
      tried.push(entry);
      if (verdict.outcome === 'error' && a.key === 'own' && status && KEY_TROUBLE.has(status)) {
        deps.health.coolOwnKey(call.team.id, a.provider);
        if (op.platform_eligible && platformKey(deps.runtime.providers[a.provider], deps.env)) retry = { ...a, key: 'platform' };
        continue;
      }
      if (verdict.outcome === 'hit') {
        let verification: Verification | undefined;
        if (call.options.verify && cap.verify) {
          const checked = await verify(deps, call, cap, verdict.output, call.options.maxCostMicro - spent, deadline);
          verification = checked.verification;
          spent += verification.cost_micro;
          // the verifier's attempts are this call's attempts too, so `tried` adds up to `cost_micro`
          for (const t of checked.tried) tried.push(t);
        }
        if (verification?.verdict !== 'invalid') {
          const ignored = (op.request?.ignores ?? []).filter((f) => prepared.sentFilters.includes(f));
          return finished(base, tried, spent, 'hit', { output: verdict.output, raw, served_by: a.endpoint_id, ignored_filters: ignored, verification });
        }
        entry.outcome = 'miss';
        entry.reason = 'verification said invalid';
        if (!call.options.waterfall) return finished(base, tried, spent, 'miss', { verification });
      }
      if (entry.outcome === 'miss') {
        anyMiss = true;
        if (cost > 0) paidMisses++;
        // the subject has none (no results, no comments): the next child would be paid to say so again
        if (cap.misses?.final && verdict.outcome === 'miss') return finished(base, tried, spent, 'miss', { stopped: 'final_miss' });
        if (!call.options.waterfall) return finished(base, tried, spent, 'miss');
      }
    } catch (e) {
      // Storage went away after earlier attempts were charged: a 503 would say nothing was charged,
      // so the call ends here and answers what those charges bought. Before any charge it is the 503.
      if (spent > 0 && isStorageOutage(e)) return finished(base, tried, spent, anyMiss ? 'miss' : 'error', { stopped: 'storage' });
      throw e;
    }
  }
  // No hit: a child left untried because the balance ran out is why the call stopped.
  const broke: Ending | null = tried.some((t) => t.reason === 'balance') ? { stopped: 'balance' } : null;
  if (anyMiss) return finished(base, tried, spent, 'miss', broke);
  if (!tried.some((t) => t.outcome !== 'skipped')) return finished(base, tried, spent, 'miss', { stopped: stoppedBy(tried) });
  return finished(base, tried, spent, 'error', broke);
}

/**
 * One attempt, paid: a platform-key attempt spends through Spending.spend (its worst case held, the
 * price charged, the rest released) and answers what was charged, or the refusal; an own-key attempt
 * holds and charges nothing (the provider bills the team) and its cost is its price. The price is the
 * child's billing rule, or what the provider's answer says it charged, within `ceilingLeft` (a list
 * price never passes the worst case held; a reported one may, and the hold charges it where the
 * balance covers it: spending.ts). `least`: the first attempt's balance check (a `short` refusal is the 402).
 */
async function paidAttempt(deps: RouterDeps, call: RouteCall, cap: Cap, a: PlannedAttempt, prepared: PreparedCall, least: number | undefined, ceilingLeft: number): Promise<Priced | Refusal> {
  const op = deps.runtime.operations[a.endpoint_id];
  const run = async () => {
    const key = a.key === 'own' ? await deps.state.ownKey(call.team.id, a.provider) : platformKey(deps.runtime.providers[a.provider], deps.env);
    const result = await attempt(deps, cap, op, prepared.fields, key!);
    const { verdict, answer, headers } = result;
    const listed = attemptChargeMicro(op, chargedAs(verdict), verdict.outcome === 'hit' ? verdict.rows : 0, prepared.limit);
    // what the provider says it charged, where its answer says (errors never cost)
    const decided = verdict.outcome === 'error' ? null : decideCharge(op, listed, { body: answer, headers }, ceilingLeft);
    return { price: decided?.micro ?? listed, result: { ...result, listed, decided }, figures: ledgerFigures(decided) };
  };
  if (a.key === 'own') {
    const { price, result } = await run();
    return { ...result, cost: price };
  }
  const spent = await deps.spending.spend({ teamId: call.team.id, worst: a.worst_cost_micro, least, ref: { endpoint_id: a.endpoint_id, call_id: call.callId }, run });
  return 'refused' in spent ? spent.refused : { ...spent.result, cost: spent.charged };
}

/** a paid attempt: what it came to, its list price, the provider's reported charge if any, and what was charged */
type Priced = Attempted & { listed: number; decided: ChargeDecision | null; cost: number };

/** what one attempt came to: the verdict, the child's status and time, and its answer as JSON text and parsed (the final poll's, for an async child) */
interface Attempted {
  verdict: Verdict;
  status: number | undefined;
  ms: number;
  raw: string;
  answer?: unknown;
  /** the headers of the answer the verdict was read from */
  headers?: ChildAnswer['headers'];
}

/**
 * One child, start to finish: the request, async polling, and the verdict on what came back. (Not
 * async: a child answering at once, the common case, is one promise from request to verdict.)
 * Bounded by svc's own limits only (SVC_ATTEMPT_TIMEOUT_MS, a job's polling by DEFAULT_TIMEOUT_MS),
 * never by the caller's deadline: a request that reached the provider is billed by it, so svc waits
 * for its answer and charges the caller what it cost, and only a provider's own slowness counts
 * against its health (docs/routing.md, "Deadlines").
 */
function attempt(deps: RouterDeps, cap: Cap, op: OperationRuntime, fields: Record<string, unknown>, key: string): Promise<Attempted> {
  const provider = deps.runtime.providers[op.provider];
  if (!provider.auth.exchange) return attemptWith(deps, cap, op, fields, key, key);
  // the key is a client id and secret: the child is called with the token they are exchanged for
  return tokens.credential(provider, key, deps.env, deps.attemptTimeoutMs, deps.maxAnswerBytes).then(
    (token) => attemptWith(deps, cap, op, fields, key, token).then((done) => {
      if (done.status === 401) tokens.forget(provider, key, token);
      return done;
    }),
    (e: unknown) => {
      if (!(e instanceof TokenRefused)) throw e;
      return { verdict: { outcome: 'error', reason: e.message }, status: e.status, ms: 0, raw: 'null' };
    },
  );
}

/** One child called with `placed` where its provider's auth says: the key, or the token it was exchanged for. */
function attemptWith(deps: RouterDeps, cap: Cap, op: OperationRuntime, fields: Record<string, unknown>, key: string, placed: string): Promise<Attempted> {
  const provider = deps.runtime.providers[op.provider];
  let req: OutgoingRequest;
  try {
    req = buildChildRequest(op, provider, op.request!, fields, placed, deps.env);
  } catch (e) {
    return Promise.resolve({ verdict: { outcome: 'error', reason: `request not built: ${(e as Error).message}` }, status: undefined, ms: 0, raw: 'null' });
  }
  return send(req, deps.attemptTimeoutMs, deps.maxAnswerBytes).then((answer) => {
    const byStatus = classifyStatus(op, answer);
    if (!byStatus && op.async) return polled(deps, cap, op, answer, key, Date.now() + DEFAULT_TIMEOUT_MS);
    const verdict = byStatus ?? classifyRecord(cap, op, answer.body);
    // The provider's own text (it parsed as JSON), so the answer is not serialised twice.
    return { verdict, status: answer.status || undefined, ms: answer.ms, raw: answer.body === undefined ? 'null' : redact(answer.text, key, placed), answer: answer.body, headers: answer.headers };
  });
}

/** An async child's job, polled from its first answer to its end (at most `deadline`, svc's own). */
async function polled(deps: RouterDeps, cap: Cap, op: OperationRuntime, answer: ChildAnswer, key: string, deadline: number): Promise<Attempted> {
  const t0 = Date.now();
  const provider = deps.runtime.providers[op.provider];
  const job = await pollJob(op, answer, { operations: deps.runtime.operations, provider, key, env: deps.env, deadline, intervalMaxMs: deps.pollIntervalMaxMs, maxAnswerBytes: deps.maxAnswerBytes });
  const ms = answer.ms + (Date.now() - t0);
  if (job.kind === 'error') return { verdict: { outcome: 'error', reason: job.reason }, status: job.status, ms, raw: 'null' };
  if (job.kind === 'failed') return { verdict: { outcome: 'miss', reason: 'job failed: not found' }, status: answer.status, ms, raw: 'null' };
  return { verdict: classifyRecord(cap, op, job.record), status: answer.status, ms, raw: redact(JSON.stringify(job.body ?? null), key), answer: job.body, headers: (job.answer ?? answer).headers };
}

/** Check a hit with the capability's verifier, as a nested routed call inside what is left of the ceiling. */
async function verify(deps: RouterDeps, call: RouteCall, cap: Cap, output: Record<string, unknown>, budgetMicro: number, deadline: number): Promise<{ verification: Verification; tried: Tried[] }> {
  const v = cap.verify!;
  const body = Object.fromEntries(Object.entries(v.with).map(([field, from]) => [field, output[from]]));
  const nested = await routeCall(deps, {
    team: call.team, capability: v.capability, body, callId: call.callId,
    options: verifierOptions(call.options, budgetMicro, deadline - Date.now()),
  });
  const checked = nested.kind === 'hit' ? nested.output[v.invalid.field] : null;
  const verdict = nested.kind !== 'hit' ? 'unknown' : v.invalid.in.some((x) => x === checked || String(x) === String(checked)) ? 'invalid' : 'valid';
  return { verification: { verdict, checked, served_by: nested.served_by, cost_micro: nested.cost_micro }, tried: nested.tried };
}

/** A verification's route options: the call's exclusions, what is left of its ceiling and deadline. */
function verifierOptions(o: RouteOptions, budgetMicro: number, timeoutMs: number): RouteOptions {
  return { ...o, maxCostMicro: Math.max(0, budgetMicro), verify: false, dryRun: false, waterfall: true, prefer: [], strictFilters: false, timeoutMs: Math.max(1, timeoutMs) };
}

function dryRun(deps: RouterDeps, call: RouteCall, cap: Cap, ownKeys: ReadonlySet<string>, base: Omit<RouteOutcome, 'kind'>): RouteOutcome {
  return { ...base, kind: 'dry_run', verifier: call.options.verify && cap.verify ? verifierWorst(deps, call, cap, ownKeys) : undefined };
}

/**
 * The most one verification of this call may cost: the verifier's whole waterfall, planned as a hit
 * would fill it (its input fields present) under the call's own exclusions and ceiling.
 */
function verifierWorst(deps: RouterDeps, call: RouteCall, cap: Cap, ownKeys: ReadonlySet<string>): { capability: string; worst_cost_micro: number } {
  const v = cap.verify!;
  const verifier = deps.runtime.capabilities[v.capability] as Cap;
  const p = plan({
    capability: verifier, operations: deps.runtime.operations, fields: Object.fromEntries(Object.keys(v.with).map((f) => [f, f])), sentFilters: [],
    limit: prepareCall(verifier, {}).limit, options: verifierOptions(call.options, call.options.maxCostMicro, call.options.timeoutMs), ownKeys,
    teamId: call.team.id, hasPlatformKey: deps.hasPlatformKey, observed: deps.observed, health: deps.health,
  });
  return { capability: v.capability, worst_cost_micro: p.attempts.reduce((n, a) => n + a.worst_cost_micro, 0) };
}
