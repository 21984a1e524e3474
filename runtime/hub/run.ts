// A run for a caller: the input checked against the input schema, the tool's price held on the
// caller's balance, the steps run through the router on the caller's balance, then the price
// charged and credited to the maker, in the same ledger, only when the run produced an output that
// fits the output schema (the earning stored as due first, so it is paid even if svc dies between
// the two writes: earnings-due.ts). A step that ran is charged by the router whatever happens after it.
import type { AppContext } from '../context/context.ts';
import { fail, invalid } from '../util/fail.ts';
import { isStorageOutage } from '../state/unavailable.ts';
import { STORAGE_RETRY_AFTER_S } from '../state/unavailable.ts';
import type { Team } from '../state/index.ts';
import { nowIso } from '../util/clock.ts';
import { CALL_ID_HEADER } from '../util/call-id.ts';
import { planRun } from './dry-run.ts';
import type { RunOptions } from './run-options.ts';
import { dataProblems, validatorsFor } from './maker-schemas.ts';
import { runPipeline, type PipelineResult } from './steps.ts';
import { specOf, versionKey } from './spec.ts';
import type { HubStore } from './store.ts';
import type { RunRecord, ToolRecord, VersionRecord } from './types.ts';

export interface RunAnswer {
  status: number;
  headers: Record<string, string>;
  body: unknown;
}

/**
 * `callId`: made by the door, so every answer of the run, a refusal too, names it. `options`: the
 * route headers a run takes (run-options.ts).
 */
export async function runTool(
  ctx: AppContext,
  store: HubStore,
  caller: Team,
  tool: ToolRecord,
  version: VersionRecord,
  input: unknown,
  options: RunOptions,
  callId: string,
): Promise<RunAnswer> {
  const spec = specOf(version);
  const key = versionKey(version);
  const validators = validatorsFor(version);
  if (!validators.input(input)) {
    invalid(
      dataProblems(validators.input.errors).map((p) => ({ loc: ['body', 'input', ...p.pointer.split('/').slice(1)], msg: p.msg, type: 'value_error.input' })),
    );
  }
  const { spending, earnings } = ctx;
  const price = version.price_micro;
  const head = { call_id: callId, tool_id: tool.tool_id, version: version.version };
  if (options.dryRun) {
    const planned = await planRun(ctx, caller, spec, input as Record<string, unknown>, price, options.maxCostMicro);
    return { status: 200, headers: { [CALL_ID_HEADER]: callId, 'x-svc-cost-micro': '0' }, body: { ...head, ...planned } };
  }
  // the price comes first out of the ceiling: a run that could not pay it stops before any step
  const stepsCeiling = options.maxCostMicro === null ? null : options.maxCostMicro - price;
  if (stepsCeiling !== null && stepsCeiling < 0) {
    const result: PipelineResult = {
      kind: 'max_cost',
      output: null,
      steps: [],
      cost_micro: 0,
      ms: 0,
      reason: `${key} costs ${price} micro-USD a run, more than X-Svc-Route-Max-Cost allows (${options.maxCostMicro}); nothing was called or charged.`,
    };
    return answer(result, { ...head, price_micro: 0 });
  }
  /** set when storage stopped answering as the price was charged, after steps that were */
  let storageCut = false;
  /** what the steps were charged, for the charging's storage check */
  let stepsCost = 0;
  const spent = await spending.spend({
    teamId: caller.id,
    worst: price,
    ref: { tool_id: key, call_id: callId },
    run: async () => {
      let result = await runPipeline(ctx, caller, spec, input as Record<string, unknown>, callId, stepsCeiling, options.gone);
      stepsCost = result.cost_micro;
      if (result.kind === 'done' && !validators.output(result.output)) {
        result = {
          ...result,
          kind: 'error',
          reason: `The tool's output does not fit its output schema: ${dataProblems(validators.output.errors)
            .map((p) => p.msg)
            .join(' ')}`,
        };
      }
      // charged while the hold still stands, so the price is there whatever ran meanwhile
      return { price: result.kind === 'done' ? price : 0, result };
    },
    // the earning is due before the caller is charged, so a crash between the two cannot lose it
    charging: async (charge, amount) => {
      const due = { maker: tool.team_id, caller: caller.id, amount_micro: amount, tool_id: key, call_id: callId };
      try {
        const charged = await earnings.charge(due, charge);
        await afterCharge(earnings.pay(due, charged), `the maker's earning of ${charged} micro-USD for ${callId} (still due: paid once storage answers)`);
        return charged;
      } catch (e) {
        // the steps were charged; a charge of the price in doubt is undone by the state (redis-doubts)
        if (!(stepsCost > 0 && isStorageOutage(e))) throw e;
        storageCut = true;
        return 0;
      }
    },
  });
  if ('refused' in spent) {
    const costs = `${key} costs ${price} micro-USD a run plus its steps' charges`;
    // the balance covers the price, but the team's calls in flight hold what it lacks: they may give it back
    if (spent.refused.why === 'held') {
      fail(
        402,
        `Balance held by calls in flight: ${costs}, and the balance (${spent.refused.balance_micro} micro-USD) less what they hold does not cover it. Nothing was charged; retry when they finish.`,
        { [CALL_ID_HEADER]: callId },
      );
    }
    fail(402, `Balance too low: ${costs}. Nothing was charged.`, { [CALL_ID_HEADER]: callId });
  }
  let result = spent.result;
  const charged = spent.charged;
  if (storageCut) result = { ...result, kind: 'storage', output: null, reason: "Storage stopped answering before the tool's price was charged." };
  const run: Omit<RunRecord, 'run'> = {
    call_id: callId,
    version: version.version,
    team: caller.slug,
    at: nowIso(),
    outcome: outcomeOf(result.kind),
    ...(result.reason ? { reason: result.reason } : {}),
    price_micro: charged,
    steps_cost_micro: result.cost_micro,
    ms: result.ms,
  };
  await afterCharge(store.addRun(tool.tool_id, run), `the run record of ${callId}`);
  return answer(result, { ...head, price_micro: charged });
}

/** how a run ended, as its record keeps it: the caller's own limits are no failure of the tool */
function outcomeOf(kind: PipelineResult['kind']): RunRecord['outcome'] {
  if (kind === 'done') return 'ok';
  if (kind === 'miss') return 'miss';
  return kind === 'balance' || kind === 'max_cost' || kind === 'storage' ? 'stopped' : 'failed';
}

/**
 * Bookkeeping after money moved (the maker's earning, the run record): if storage fails there, the
 * caller still gets what was charged for, and the failure is logged (an earning left due is paid by
 * repair once storage answers; a lost run record stays lost).
 */
async function afterCharge(write: Promise<unknown>, what: string): Promise<void> {
  try {
    await write;
  } catch (e) {
    if (!isStorageOutage(e)) throw e;
    process.stderr.write(`svc: ${what} was not stored: storage stopped answering (${e instanceof Error ? e.message : String(e)})\n`);
  }
}

function answer(result: PipelineResult, head: { call_id: string; tool_id: string; version: number; price_micro: number }): RunAnswer {
  const cost = result.cost_micro + head.price_micro;
  const svc = {
    ...head,
    cost_micro: cost,
    steps: result.steps,
    ...(result.kind === 'done' ? {} : { stopped: result.kind, step: result.step, reason: result.reason }),
  };
  const headers: Record<string, string> = { [CALL_ID_HEADER]: head.call_id, 'x-svc-cost-micro': String(cost) };
  const unpaid = `The steps that ran were charged (${result.cost_micro} micro-USD); the tool's price was not.`;
  if (result.kind === 'done' || result.kind === 'miss') return { status: 200, headers, body: { output: result.output, _svc: svc } };
  // the ceiling stops a run as it stops a routed call: 200, no output, and the header that says why
  if (result.kind === 'max_cost') return { status: 200, headers: { ...headers, 'x-svc-stopped': 'max_cost' }, body: { output: null, _svc: svc } };
  if (result.kind === 'storage') {
    return {
      status: 503,
      headers: { ...headers, 'retry-after': String(STORAGE_RETRY_AFTER_S) },
      body: { detail: `${result.reason} ${unpaid} Retry after the time given.`, _svc: svc },
    };
  }
  if (result.kind === 'balance') fail(402, `${result.reason} ${unpaid}`, headers);
  if (result.kind === 'refused' && result.issues) {
    invalid(
      result.issues.map((i) => ({ ...i, loc: ['steps', result.step!, ...i.loc.slice(1)], msg: `${i.msg} ${unpaid}` })),
      headers,
    );
  }
  return { status: 502, headers, body: { detail: `${result.reason} ${unpaid}`, _svc: svc } };
}
