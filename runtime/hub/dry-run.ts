// A hub run's dry run: each step's plan and worst cost, plus the tool's price, with nothing called
// or charged. Later steps' fields come from earlier steps' outputs, unknown before the run: such a
// field counts as given (its template stands for the value), so a step's plan is the widest it can
// be and its worst cost an upper bound of what the run may spend on it.
import type { AppContext } from '../context/context.ts';
import type { Team } from '../state/index.ts';
import { parseRouteOptions } from '../router/options.ts';
import { holdMicro, rowsAsked } from '../router/pass-through-rows.ts';
import { stepTarget } from './step-target.ts';
import { fillAll } from './templates.ts';
import type { CapabilitySrc } from '../../language/types.ts';
import type { ToolSpec } from './types.ts';

export interface StepPlan {
  id: string;
  call: string;
  plan: Array<{ endpoint_id: string; key?: 'own' | 'platform'; worst_cost_micro: number }>;
  excluded?: Array<{ endpoint_id: string; reason: string }>;
  worst_cost_micro: number;
}

export interface RunPlan {
  steps: StepPlan[];
  price_micro: number;
  /** every step's worst plus the price, within the run's ceiling */
  worst_cost_micro: number;
}

const DEFAULTS = parseRouteOptions(new Headers());

/** `ceilingMicro`: the run's X-Svc-Route-Max-Cost, if sent (steps are planned within it less the price) */
export async function planRun(
  ctx: AppContext,
  team: Team,
  spec: ToolSpec,
  input: Record<string, unknown>,
  priceMicro: number,
  ceilingMicro: number | null,
): Promise<RunPlan> {
  const options = ceilingMicro === null ? DEFAULTS : { ...DEFAULTS, maxCostMicro: Math.max(0, ceilingMicro - priceMicro) };
  const steps: StepPlan[] = [];
  for (const step of spec.tool.steps) {
    const target = stepTarget(ctx.catalog.runtime, step.call);
    if (!target) {
      steps.push({ id: step.id, call: step.call, plan: [], worst_cost_micro: 0 });
      continue;
    }
    const known = fillAll(step.with, { input, steps: {} });
    // a value only a run can know stands as its template text: present, as it will be
    const body: Record<string, unknown> = Object.fromEntries(Object.keys(step.with).map((k) => [k, known[k] ?? step.with[k]]));
    if (target.kind === 'routed') {
      const dry = await ctx.router.plan(team, target.capability, withDerived(target.cap, body), options);
      steps.push({ id: step.id, call: step.call, plan: dry.plan, excluded: dry.excluded, worst_cost_micro: dry.worst_cost_micro });
    } else {
      const query = new URLSearchParams(
        Object.entries(body)
          .filter(([k]) => Object.hasOwn(target.op.input.queryParams ?? {}, k))
          .map(([k, v]) => [k, String(v)]),
      );
      const worst = holdMicro(target.op, rowsAsked(target.op, query, body));
      steps.push({ id: step.id, call: step.call, plan: [{ endpoint_id: target.op.endpoint_id, worst_cost_micro: worst }], worst_cost_micro: worst });
    }
  }
  // the run's ceiling bounds the steps and the price together, as each step's bounds its own plan;
  // one below the price stops the run before any step, at no cost
  const worst = steps.reduce((n, s) => n + s.worst_cost_micro, priceMicro);
  const bounded = ceilingMicro === null ? worst : ceilingMicro < priceMicro ? 0 : Math.min(worst, ceilingMicro);
  return { steps, price_micro: priceMicro, worst_cost_micro: bounded };
}

/** the fields the router derives from present ones, present too (a template's text derives nothing) */
function withDerived(cap: CapabilitySrc, body: Record<string, unknown>): Record<string, unknown> {
  const out = { ...body };
  for (let pass = 0, changed = true; changed && pass < 4; pass++) {
    changed = false;
    for (const [field, d] of Object.entries(cap.derive ?? {})) {
      if (out[field] === undefined && d.from.every((f) => out[f] !== undefined)) {
        out[field] = `{{${field}}}`;
        changed = true;
      }
    }
  }
  return out;
}
