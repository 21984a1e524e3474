// A tool's steps run in order for one team, each through the router in-process: `svc.<capability>`
// as a routed call, a catalog operation as a pass-through. Each step is charged to that team by
// the router's own rules; the first step that misses, fails or is refused ends the pipeline.
import type { AppContext } from '../context/context.ts';
import { neededMicroOf, StatusError, type PlainAnswer, type ValidationIssue } from '../util/fail.ts';
import { isStorageOutage } from '../state/unavailable.ts';
import type { Team } from '../state/index.ts';
import { parseRouteOptions } from '../router/options.ts';
import { formatUsd } from '../state/money.ts';
import type { RoutedResponse } from '../router/respond.ts';
import type { Gone } from '../router/outcome.ts';
import { missWhen } from '../../language/map-response.ts';
import { stepTarget, type StepTarget } from './step-target.ts';
import { fillAll, type Scope } from './templates.ts';
import type { Step, ToolSpec } from './types.ts';

export type StepOutcome = 'hit' | 'miss' | 'error' | 'refused' | 'balance' | 'storage' | 'max_cost';

/** one step's account: the router's `_svc` block for a routed step, the provider's status for an operation */
interface StepFacts {
  outcome: StepOutcome;
  cost_micro: number;
  [more: string]: unknown;
}
export type StepAccount = { id: string; call: string } & StepFacts;

export interface PipelineResult {
  /** `done` when every step hit; otherwise the first step's outcome that ended it */
  kind: 'done' | Exclude<StepOutcome, 'hit'>;
  output: Record<string, unknown> | null;
  steps: StepAccount[];
  cost_micro: number;
  ms: number;
  /** which step ended it, and why, in a sentence */
  step?: string;
  reason?: string;
  /** the router's 422 issues when a step was refused */
  issues?: ValidationIssue[];
}

// no route headers: each step runs with the defaults
const NO_HEADERS = new Headers();
const DEFAULT_OPTIONS = parseRouteOptions(NO_HEADERS);

interface StepAnswer {
  account: StepFacts;
  output?: Record<string, unknown>;
  reason?: string;
  issues?: ValidationIssue[];
  /** a 402's amount: what the step's cheapest attempt may cost */
  neededMicro?: number;
}

/**
 * `callId`: the run's, carried by every step's answer and ledger rows. `ceilingMicro`: what the
 * steps together may cost (a run's X-Svc-Route-Max-Cost less the tool's price); each step is planned
 * within what is left of it, and one that cannot run within it ends the run (`max_cost`). `gone`:
 * whether the caller has left; a routed step then tries no further child (and finds nothing).
 */
export async function runPipeline(
  ctx: AppContext,
  team: Team,
  spec: ToolSpec,
  input: Record<string, unknown>,
  callId: string,
  ceilingMicro: number | null = null,
  gone?: Gone,
): Promise<PipelineResult> {
  const t0 = Date.now();
  const scope: Scope = { input, steps: {} };
  const steps: StepAccount[] = [];
  let cost = 0;
  for (const step of spec.tool.steps) {
    const target = stepTarget(ctx.catalog.runtime, step.call);
    const body = fillAll(step.with, scope);
    // a catalog built after the publish may have dropped what a step calls
    const left = ceilingMicro === null ? null : ceilingMicro - cost;
    const answer: StepAnswer = target
      ? await stepOrStop(ctx, team, { callId, left, gone }, target, body, cost)
      : { account: { outcome: 'refused', cost_micro: 0 }, reason: `${step.call} is no longer in the catalog.` };
    steps.push({ id: step.id, call: step.call, ...answer.account });
    cost += answer.account.cost_micro;
    if (answer.account.outcome !== 'hit') {
      const kind = answer.account.outcome as PipelineResult['kind'];
      return {
        kind,
        output: null,
        steps,
        cost_micro: cost,
        ms: Date.now() - t0,
        step: step.id,
        reason: sentence(step, kind, answer, body),
        issues: answer.issues,
      };
    }
    scope.steps[step.id] = answer.output ?? {};
  }
  return { kind: 'done', output: fillAll(spec.tool.output, scope), steps, cost_micro: cost, ms: Date.now() - t0 };
}

function sentence(step: Step, kind: PipelineResult['kind'], answer: StepAnswer, body: Record<string, unknown>): string {
  const sent = JSON.stringify(body).slice(0, 300);
  const why = answer.reason ? `: ${answer.reason}` : '';
  if (kind === 'miss') return `Step '${step.id}' (${step.call}) found nothing for ${sent}${why}.`;
  if (kind === 'storage') return `Step '${step.id}' (${step.call}) was cut short: ${answer.reason}.`;
  if (kind === 'max_cost') return `Step '${step.id}' (${step.call}) could not run within X-Svc-Route-Max-Cost (the steps plus the tool's price)${why}.`;
  // the amount, not the router's own 402 sentence (a run or a check adds what to do next)
  if (kind === 'balance') {
    const short = answer.neededMicro === undefined ? why.replace(/\.$/, '') : ` for its cheapest attempt (${answer.neededMicro} micro-USD)`;
    return `Step '${step.id}' (${step.call}) could not run: the balance is too low${short}.`;
  }
  if (kind === 'refused') return `Step '${step.id}' (${step.call}) was refused for ${sent}${why}`;
  return `Step '${step.id}' (${step.call}) failed for ${sent}${why}.`;
}

/**
 * One step, or the run's end when storage stops answering after earlier steps were charged: a 503
 * saying nothing was charged would then be untrue. Before any charge the 503 stands.
 */
async function stepOrStop(
  ctx: AppContext,
  team: Team,
  run: StepRun,
  target: StepTarget,
  body: Record<string, unknown>,
  chargedSoFar: number,
): Promise<StepAnswer> {
  try {
    return await callStep(ctx, team, run, target, body);
  } catch (e) {
    if (chargedSoFar > 0 && isStorageOutage(e)) return { account: { outcome: 'storage', cost_micro: 0 }, reason: 'storage stopped answering' };
    throw e;
  }
}

/** the run a step belongs to: its call id, what is left of its ceiling (null: none sent), and whether its caller has left */
interface StepRun {
  callId: string;
  left: number | null;
  gone?: Gone;
}

function callStep(ctx: AppContext, team: Team, run: StepRun, target: StepTarget, body: Record<string, unknown>): Promise<StepAnswer> {
  return target.kind === 'routed' ? routedStep(ctx, team, run, target.capability, body) : operationStep(ctx, team, run, target, body);
}

/**
 * a refusal the router or pass-through threw (any 4xx: 402, 403, 422, a 400 for a path its values
 * would make…), as a step outcome, so the run names what earlier steps were charged; anything else
 * is rethrown
 */
function refusal(e: unknown): StepAnswer {
  if (!(e instanceof StatusError) || e.status < 400 || e.status > 499) throw e;
  const detail = (e.data as { detail?: unknown } | undefined)?.detail;
  // the pass-through's 400s are a path its values would make (a dot segment, another host): refused values, as a 422's
  const issues = Array.isArray(detail)
    ? (detail as ValidationIssue[])
    : e.status === 400
      ? [{ loc: ['path'], msg: e.message, type: 'value_error.path' }]
      : undefined;
  const reason = issues ? issues.map((i) => `${i.loc.join('.')}: ${i.msg}`).join(' ') : e.message;
  return { account: { outcome: e.status === 402 ? 'balance' : 'refused', cost_micro: 0 }, reason, issues, neededMicro: neededMicroOf(e) };
}

async function routedStep(ctx: AppContext, team: Team, run: StepRun, capability: string, body: Record<string, unknown>): Promise<StepAnswer> {
  let res: RoutedResponse;
  try {
    const options = run.left === null ? DEFAULT_OPTIONS : { ...DEFAULT_OPTIONS, maxCostMicro: Math.max(0, run.left) };
    res = await ctx.router.call(team, capability, body, options, run.callId, run.gone);
  } catch (e) {
    return refusal(e);
  }
  const parsed = JSON.parse(res.text) as { output?: Record<string, unknown>; _svc: { served_by: string | null; cost_micro: number; stopped?: string } };
  const svc = parsed._svc;
  const outcome: StepOutcome =
    res.status === 502
      ? 'error'
      : svc.stopped === 'storage'
        ? 'storage'
        : svc.stopped === 'balance'
          ? 'balance'
          : svc.stopped === 'max_cost'
            ? 'max_cost'
            : svc.served_by
              ? 'hit'
              : 'miss';
  // a balance stop needs no reason: the step's sentence says the balance is too low
  const reason =
    res.status === 502
      ? 'every child that was tried failed with an error'
      : svc.stopped === 'storage'
        ? 'storage stopped answering'
        : svc.stopped && svc.stopped !== 'balance' && svc.stopped !== 'max_cost'
          ? `stopped by ${svc.stopped}`
          : undefined;
  return { account: { outcome, ...svc }, output: parsed.output, reason };
}

/** a catalog operation through the pass-through, in-process: the provider's own JSON is the step's output */
async function operationStep(
  ctx: AppContext,
  team: Team,
  run: StepRun,
  target: Extract<StepTarget, { kind: 'operation' }>,
  fields: Record<string, unknown>,
): Promise<StepAnswer> {
  const { op } = target;
  const { queryParams = {}, body: bodyParams = {} } = op.input;
  const path = op.path.replace(/\{([a-zA-Z0-9_]+)\}/g, (_, k: string) => encodeURIComponent(String(fields[k] ?? '')));
  const query = new URLSearchParams();
  const json: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(fields)) {
    if (Object.hasOwn(queryParams, k)) query.set(k, typeof v === 'string' ? v : JSON.stringify(v));
    else if (Object.hasOwn(bodyParams, k)) json[k] = v;
  }
  const hasBody = op.method !== 'GET' && op.method !== 'DELETE';
  let res: PlainAnswer;
  try {
    // the ceiling left, as the pass-through takes one: an operation that may cost more is refused before it is called
    const headers = run.left === null ? NO_HEADERS : new Headers({ 'x-svc-route-max-cost': formatUsd(Math.max(0, run.left)) });
    res = await ctx.router.passThrough(team, { provider: op.provider, method: op.method, path, query, headers, body: hasBody ? json : undefined }, run.callId);
  } catch (e) {
    if (e instanceof StatusError && e.status === 502) return { account: { outcome: 'error', cost_micro: 0 }, reason: e.message };
    const stopped = refusal(e);
    return stopped.issues?.some((i) => i.type === 'value_error.max_cost')
      ? { ...stopped, account: { outcome: 'max_cost', cost_micro: 0 }, reason: undefined, issues: undefined }
      : stopped;
  }
  const cost_micro = Number(res.headers['x-svc-cost-micro'] ?? 0);
  const text = res.text;
  let answer: unknown;
  try {
    answer = JSON.parse(text);
  } catch {
    answer = undefined;
  }
  const status = res.status;
  const account = { cost_micro, status, served_by: op.endpoint_id };
  if (op.miss?.status?.includes(status) || (status < 300 && missWhen(op.miss, answer))) return { account: { ...account, outcome: 'miss' } };
  if (status >= 300 || !answer || typeof answer !== 'object' || Array.isArray(answer))
    return { account: { ...account, outcome: 'error' }, reason: `${op.provider} answered status ${status}` };
  return { account: { ...account, outcome: 'hit' }, output: answer as Record<string, unknown> };
}
