// The executor: runs a plan's attempts in order (the waterfall), decides hit/miss/error, charges by
// each child's billing rule within the cost ceiling, verifies hits where asked, and records every
// attempt. Pure decisions live in plan.ts and classify.ts, one child's attempt in attempt.ts, what a
// call comes to in outcome.ts; this file is the loop around them.
import { prepareCall, type PreparedCall } from '../../language/prepare-call.ts';
import { missOutput } from '../../language/map-response.ts';
import { platformKey } from '../../language/provider-auth.ts';
import { isStorageOutage } from '../state/unavailable.ts';
import { cheapestAttemptMicro, plan, type PlannedAttempt } from './plan.ts';
import { KEY_TROUBLE } from './classify.ts';
import { paidAttempt } from './attempt.ts';
import { dryRun, verifierOptions } from './verifier.ts';
import {
  finished,
  skipped,
  stoppedBy,
  type Cap,
  type Ending,
  type RouteCall,
  type RouteOutcome,
  type RouterDeps,
  type Tried,
  type Verification,
} from './outcome.ts';

export async function routeCall(deps: RouterDeps, call: RouteCall): Promise<RouteOutcome> {
  const cap = deps.runtime.capabilities[call.capability] as Cap;
  const prepared = prepareCall(cap, call.body);
  const ownKeys: ReadonlySet<string> = deps.state.knownOwnKeyProviders(call.team.id) ?? new Set(await deps.state.ownKeyProviders(call.team.id));
  const thePlan = plan({
    capability: cap,
    operations: deps.runtime.operations,
    fields: prepared.fields,
    sentFilters: prepared.sentFilters,
    limit: prepared.limit,
    options: call.options,
    ownKeys,
    teamId: call.team.id,
    hasPlatformKey: deps.hasPlatformKey,
    observed: deps.observed,
    health: deps.health,
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
  if (o.tried.some((t) => t.outcome !== 'skipped'))
    deps.state.recordAttempt(`svc.${call.capability}`, {
      outcome: o.kind === 'hit' ? 'hit' : o.kind === 'miss' ? 'miss' : 'error',
      ms: Date.now() - t0,
      at: Date.now(),
      paid_micro: o.cost_micro,
    });
  return o;
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
  /** the least an attempt skipped for the balance needed, and the balance it found */
  let heldNeed = Number.POSITIVE_INFINITY;
  let heldBalance = 0;
  /** an own-key attempt the provider refused, to be made again at once with the platform key */
  let retry: PlannedAttempt | null = null;
  for (let i = 0; i < planned.length || retry; ) {
    const a: PlannedAttempt = retry ?? planned[i++];
    retry = null;
    const op = deps.runtime.operations[a.endpoint_id];
    if (Date.now() >= deadline) {
      tried.push(skipped(a.endpoint_id, 'deadline'));
      continue;
    }
    // nobody will read the answer: what another child would cost is spent for no one
    if (call.gone()) {
      tried.push(skipped(a.endpoint_id, 'caller_gone'));
      continue;
    }
    if (spent + a.worst_cost_micro > call.options.maxCostMicro) {
      tried.push(skipped(a.endpoint_id, 'over_ceiling'));
      continue;
    }
    if (a.bills_miss && paidMisses >= (cap.misses?.billed_at_most ?? Infinity)) {
      tried.push(skipped(a.endpoint_id, 'billed_miss_limit'));
      continue;
    }
    try {
      const made = await paidAttempt(deps, call, cap, a, prepared, least !== null && a === planned[0] ? least : undefined, call.options.maxCostMicro - spent);
      if ('why' in made) {
        // every attempt listed as skipped for the balance: what a verification refused this way shows
        if (made.why === 'short' && a === planned[0] && least !== null) {
          return {
            ...base,
            kind: 'broke',
            needed_micro: least,
            balance_micro: made.balance_micro,
            stopped: 'balance',
            tried: planned.map((p) => skipped(p.endpoint_id, 'balance')),
          };
        }
        tried.push(skipped(a.endpoint_id, 'balance'));
        heldNeed = Math.min(heldNeed, a.worst_cost_micro);
        heldBalance = made.balance_micro;
        continue;
      }
      const { verdict, status, ms, raw, cost, listed, decided } = made;
      spent += cost;
      deps.state.recordAttempt(a.endpoint_id, {
        outcome: verdict.outcome,
        ms,
        at: Date.now(),
        charge: decided?.reported ? { list_micro: listed, reported_micro: decided.reported.micro } : undefined,
      });
      deps.health.record(a.endpoint_id, verdict.outcome);
      // undefined fields are left out of the JSON answer
      const entry: Tried = {
        endpoint_id: a.endpoint_id,
        outcome: verdict.outcome,
        reason: verdict.outcome === 'hit' ? undefined : verdict.reason,
        status: status || undefined,
        ms,
        cost_micro: cost,
        key: a.key === 'own' ? 'own' : undefined,
      };
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
  if (!tried.some((t) => t.outcome !== 'skipped')) {
    // Nothing ran because the team's calls in flight held the balance: a 402 to retry when they
    // finish, as a pass-through answers; a 200 miss would read as "nothing found" for a subject
    // nobody looked up.
    if (broke) return { ...finished(base, tried, spent, 'miss', broke), kind: 'held', needed_micro: heldNeed, balance_micro: heldBalance };
    return finished(base, tried, spent, 'miss', { stopped: stoppedBy(tried) });
  }
  return finished(base, tried, spent, 'error', broke);
}

/** Check a hit with the capability's verifier, as a nested routed call inside what is left of the ceiling. */
async function verify(
  deps: RouterDeps,
  call: RouteCall,
  cap: Cap,
  output: Record<string, unknown>,
  budgetMicro: number,
  deadline: number,
): Promise<{ verification: Verification; tried: Tried[] }> {
  const v = cap.verify!;
  const body = Object.fromEntries(Object.entries(v.with).map(([field, from]) => [field, output[from]]));
  const nested = await routeCall(deps, {
    team: call.team,
    capability: v.capability,
    body,
    callId: call.callId,
    gone: call.gone,
    options: verifierOptions(call.options, budgetMicro, deadline - Date.now()),
  });
  const checked = nested.kind === 'hit' ? nested.output[v.invalid.field] : null;
  const verdict = nested.kind !== 'hit' ? 'unknown' : v.invalid.in.some((x) => x === checked || String(x) === String(checked)) ? 'invalid' : 'valid';
  return { verification: { verdict, checked, served_by: nested.served_by, cost_micro: nested.cost_micro }, tried: nested.tried };
}
