// One child attempt, start to finish: the key, the request, async polling, the verdict, and the
// price (the billing rule's, or what the provider says it charged), spent through Spending for a
// platform-key attempt.
import type { OperationRuntime } from '../../language/types.ts';
import type { PreparedCall } from '../../language/prepare-call.ts';
import { platformKey } from '../../language/provider-auth.ts';
import { attemptChargeMicro } from '../../language/prices.ts';
import { decideCharge, ledgerFigures, type ChargeDecision } from '../../language/reported-charge.ts';
import { DEFAULT_TIMEOUT_MS } from '../../language/route-options.ts';
import type { Refusal } from '../money/spending.ts';
import type { PlannedAttempt } from './plan.ts';
import { buildChildRequest, type OutgoingRequest } from './build-request.ts';
import { send, type ChildAnswer } from './http.ts';
import { chargedAs, classifyRecord, classifyStatus, type Verdict } from './classify.ts';
import { pollJob } from './poll.ts';
import { redact } from './redact.ts';
import { tokens, TokenRefused } from './token-exchange.ts';
import type { Cap, RouteCall, RouterDeps } from './outcome.ts';

/**
 * One attempt, paid: a platform-key attempt spends through Spending.spend (its worst case held, the
 * price charged, the rest released) and answers what was charged, or the refusal; an own-key attempt
 * holds and charges nothing (the provider bills the team) and its cost is its price. The price is the
 * child's billing rule, or what the provider's answer says it charged, within `ceilingLeft` (a list
 * price never passes the worst case held; a reported one may, and the hold charges it where the
 * balance covers it: spending.ts). `least`: the first attempt's balance check (a `short` refusal is the 402).
 */
export async function paidAttempt(
  deps: RouterDeps,
  call: RouteCall,
  cap: Cap,
  a: PlannedAttempt,
  prepared: PreparedCall,
  least: number | undefined,
  ceilingLeft: number,
): Promise<Priced | Refusal> {
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
  const spent = await deps.spending.spend({
    teamId: call.team.id,
    worst: a.worst_cost_micro,
    least,
    ref: { endpoint_id: a.endpoint_id, call_id: call.callId },
    run,
  });
  return 'refused' in spent ? spent.refused : { ...spent.result, cost: spent.charged };
}

/** a paid attempt: what it came to, its list price, the provider's reported charge if any, and what was charged */
export type Priced = Attempted & { listed: number; decided: ChargeDecision | null; cost: number };

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
    (token) =>
      attemptWith(deps, cap, op, fields, key, token).then((done) => {
        if (done.status === 401) tokens.forget(provider, key, deps.env, token);
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
    return {
      verdict,
      status: answer.status || undefined,
      ms: answer.ms,
      raw: answer.body === undefined ? 'null' : redact(answer.text, key, placed),
      answer: answer.body,
      headers: answer.headers,
    };
  });
}

/** An async child's job, polled from its first answer to its end (at most `deadline`, svc's own). */
async function polled(deps: RouterDeps, cap: Cap, op: OperationRuntime, answer: ChildAnswer, key: string, deadline: number): Promise<Attempted> {
  const t0 = Date.now();
  const provider = deps.runtime.providers[op.provider];
  const job = await pollJob(op, answer, {
    operations: deps.runtime.operations,
    provider,
    key,
    env: deps.env,
    deadline,
    intervalMaxMs: deps.pollIntervalMaxMs,
    maxAnswerBytes: deps.maxAnswerBytes,
  });
  const ms = answer.ms + (Date.now() - t0);
  if (job.kind === 'error') return { verdict: { outcome: 'error', reason: job.reason }, status: job.status, ms, raw: 'null' };
  if (job.kind === 'failed') return { verdict: { outcome: 'miss', reason: 'job failed: not found' }, status: answer.status, ms, raw: 'null' };
  return {
    verdict: classifyRecord(cap, op, job.record),
    status: answer.status,
    ms,
    raw: redact(JSON.stringify(job.body ?? null), key),
    answer: job.body,
    headers: (job.answer ?? answer).headers,
  };
}
