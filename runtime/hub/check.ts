// A version's check: check.json's input run once for real through the router on the maker's
// balance. Live when every step served, the output fits output.schema.json and every `expect`
// holds; failed with a reason a maker can act on otherwise; unchecked when the balance ran short.
// The check of a live version (the maker re-checking it) is recorded on it and changes no status.
// Its cost ahead: checkPlan, the dry run of check.json's input.
import { isDeepStrictEqual } from 'node:util';
import type { AppContext } from '../context/context.ts';
import type { Team } from '../state/index.ts';
import { nowIso } from '../util/clock.ts';
import { dataProblems, validatorsFor } from './maker-schemas.ts';
import { runPipeline } from './steps.ts';
import { newCallId } from '../util/call-id.ts';
import { specOf, versionKey } from './spec.ts';
import type { HubStore } from './store.ts';
import type { CheckResult, VersionRecord, VersionStatus } from './types.ts';
import type { Team as MakerTeam } from '../state/index.ts';
import { planRun, type RunPlan } from './dry-run.ts';

const shown = (v: unknown) => (v === undefined ? 'nothing' : JSON.stringify(v).slice(0, 200));

export async function runCheck(ctx: AppContext, store: HubStore, maker: Team, version: VersionRecord): Promise<VersionRecord> {
  const spec = specOf(version);
  // compiled before the steps run, so a schema svc cannot run refuses the check before it spends
  const { output: fits } = validatorsFor(version);
  const result = await runPipeline(ctx, maker, spec, spec.check.input, newCallId());
  let status: VersionStatus = 'failed';
  let reason: string | undefined = result.reason;
  if (result.kind === 'balance') {
    status = 'unchecked';
    // one sentence: the step's, then what to do
    reason = `${result.reason!.replace(/\.$/, '')}; add credit, then POST /hub/tools/${versionKey(version)}/check.`;
  } else if (result.kind === 'done') {
    const output = result.output!;
    const expected = Object.entries(spec.check.expect ?? {}).find(([field, want]) => !isDeepStrictEqual(output[field], want));
    if (!fits(output)) {
      reason = `The output does not fit output.schema.json: ${dataProblems(fits.errors)
        .map((p) => p.msg)
        .join(' ')} The output was ${shown(output)}.`;
    } else if (expected) {
      const [field, want] = expected;
      reason = `check.json expects output '${field}' to be ${shown(want)}; the tool answered ${shown(output[field])} (steps served by ${result.steps.map((s) => `${s.id}: ${String(s.served_by)}`).join(', ')}).`;
    } else {
      status = 'live';
      reason = undefined;
    }
  }
  const check: CheckResult = {
    ok: status === 'live',
    at: nowIso(),
    cost_micro: result.cost_micro,
    ms: result.ms,
    ...(result.output ? { output: result.output } : {}),
  };
  const updated = await store.updateVersion(version.tool_id, version.version, (v) => {
    // a check never takes a version back from live (pinned callers keep it); a live version's check
    // is recorded, and a failed one is shown wherever the tool is (its page, search, the store)
    if (v.status === 'live') return { ...v, check: { ...check, ...(reason && status !== 'live' ? { reason } : {}) } };
    const { reason: _old, ...rest } = v;
    void _old;
    return { ...rest, status, check, ...(reason ? { reason } : {}), ...(status === 'live' ? { live_at: nowIso() } : {}) };
  });
  return updated!;
}

/** what the check of `version` would call and cost at worst (its steps; a check pays no price), nothing called */
export function checkPlan(ctx: AppContext, maker: MakerTeam, version: VersionRecord): Promise<RunPlan> {
  const spec = specOf(version);
  return planRun(ctx, maker, spec, spec.check.input, 0, null);
}
