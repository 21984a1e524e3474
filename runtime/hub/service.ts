// The hub as the routes see it: publish (validate, store unchecked, check), check later, read,
// run, retire and list runs, with who-may-do-what decided in one place (access.ts).
import { perContext, type AppContext } from '../context/context.ts';
import { fail, invalid } from '../util/fail.ts';
import type { Team } from '../state/index.ts';
import { now } from '../util/clock.ts';
import { liveTool, openOwnTool, openTool, retiredSentence, type ToolRef } from './access.ts';
import { checkPlan, runCheck } from './check.ts';
import { newestLive, pinExpired, pinnableUntil } from './pin.ts';
import { runTool, type RunAnswer } from './run.ts';
import type { RunOptions } from './run-options.ts';
import { specOf } from './spec.ts';
import { HubStore } from './store.ts';
import { validateFiles } from './validate-files.ts';
import { browse, type BrowseQuery, type OwnRow } from './browse.ts';
import { liveToolsOf } from './live-tools.ts';
import { toolView } from './view.ts';
import { pageFacts } from './page.ts';
import type { FileName, ToolRecord, VersionRecord } from './types.ts';

export interface PublishAnswer {
  tool_id: string;
  version: number;
  status: string;
  reason?: string;
  check: { ok: boolean; cost_micro: number; ms: number; output?: unknown };
}

/** what every list row says of a tool at one of its versions */
const toolRow = (tool: ToolRecord, v: VersionRecord, team: Team) => {
  const spec = specOf(v);
  return {
    tool_id: tool.tool_id,
    mine: tool.team_id === team.id,
    name: spec.tool.name,
    summary: spec.tool.summary,
    price_usd: v.price_micro / 1_000_000,
    version: v.version,
  };
};

const published = (v: VersionRecord): PublishAnswer => ({
  tool_id: v.tool_id,
  version: v.version,
  status: v.status,
  ...((v.reason ?? v.check?.reason) ? { reason: v.reason ?? v.check?.reason } : {}),
  check: v.check ?? { ok: false, cost_micro: 0, ms: 0 },
});

export class Hub {
  private store: HubStore;

  constructor(private ctx: AppContext) {
    this.store = new HubStore(ctx.state.atomics);
  }

  /** POST (create or add a version; the id is claimed for the team) or PUT (the tool must exist and be the team's) */
  async publish(team: Team, id: string, files: Record<FileName, string>, mode: 'create' | 'update'): Promise<PublishAnswer> {
    // who may publish is answered before what was sent: another team learns nothing from a 422
    const existing = mode === 'update' ? await openOwnTool(this.store, team, id, 'publish versions of') : null;
    if (existing?.retired_at) fail(410, retiredSentence(existing));
    const checked = validateFiles(files, this.ctx.catalog.runtime);
    if ('issues' in checked) invalid(checked.issues);
    const tool = existing ?? (await this.store.claimTool(id, team.id));
    if (tool.team_id !== team.id) fail(409, `The tool id '${id}' belongs to another team; choose another id.`);
    if (tool.retired_at) fail(410, retiredSentence(tool));
    const version = await this.store.addVersion(id, files, checked.price_micro);
    return this.checked(await runCheck(this.ctx, this.store, team, version));
  }

  /** run a version's check again (a live one too: its result is recorded, its status stays); `dryRun`: its plan and worst cost only */
  async check(team: Team, ref: ToolRef, dryRun: boolean): Promise<PublishAnswer | Record<string, unknown>> {
    const tool = await openOwnTool(this.store, team, ref.id, 'check');
    if (tool.retired_at) fail(410, retiredSentence(tool));
    const version = ref.n === null ? await this.store.newest(ref.id) : await this.store.version(ref.id, ref.n);
    if (!version) fail(404, ref.n === null ? `Tool '${ref.id}' has no version yet.` : `Tool '${ref.id}' has no version ${ref.n}.`);
    if (dryRun) return { tool_id: ref.id, version: version.version, status: version.status, dry_run: true, ...(await checkPlan(this.ctx, team, version)) };
    const checked = await runCheck(this.ctx, this.store, team, version);
    // a live version's check changes what readers see of it (its last check) though not its status
    if (version.status === 'live') await liveToolsOf(this.ctx).changed();
    return this.checked(checked);
  }

  /** a checked version's answer, once the live tools know of it */
  private async checked(v: VersionRecord): Promise<PublishAnswer> {
    if (v.status === 'live') await liveToolsOf(this.ctx).changed();
    return published(v);
  }

  /** the store's shelf (browse.ts): live tools, and the team's own that are not live */
  async browse(team: Team, query: BrowseQuery): ReturnType<typeof browse> {
    return browse(this.ctx, team, query, (await this.mine(team)).tools as OwnRow[]);
  }

  /**
   * The tools `team` made, every one whatever its state (unchecked, failed, live, retired), each
   * with its newest version: the maker's own list, where GET /hub/tools without `mine` lists what
   * may be run.
   */
  mine(team: Team): Promise<{ tools: Array<Record<string, unknown>> }> {
    return this.rows((tool, versions) => {
      const newest = versions.at(-1);
      if (tool.team_id !== team.id || !newest) return null;
      return {
        ...toolRow(tool, newest, team),
        status: tool.retired_at ? 'retired' : newest.status,
        ...(newest.reason ? { reason: newest.reason } : {}),
        live_version: newestLive(versions)?.version ?? null,
      };
    });
  }

  /** one row per stored tool that `row` answers for, in id order */
  private async rows(row: (tool: ToolRecord, versions: VersionRecord[]) => Record<string, unknown> | null): Promise<{ tools: Array<Record<string, unknown>> }> {
    const tools = [];
    for (const id of await this.store.toolIds()) {
      const tool = await this.store.tool(id);
      const made = tool && row(tool, await this.store.versions(id));
      if (made) tools.push(made);
    }
    return { tools };
  }

  /** 404 unless `team` may see the tool (its maker, or any team once a version went live) */
  async visible(team: Team, id: string): Promise<void> {
    await liveTool(this.store, team, id);
  }

  async view(team: Team, ref: ToolRef): Promise<Record<string, unknown>> {
    const opened = await openTool(this.store, team, ref.id);
    if (opened.tool.retired_at && !opened.maker) fail(410, retiredSentence(opened.tool));
    const maker = await this.ctx.state.teamById(opened.tool.team_id);
    const view = await toolView(this.store, opened, maker?.slug ?? '', ref.n);
    const selected = opened.versions.find((v) => v.version === view.version)!;
    return { ...view, ...(await pageFacts(this.ctx, this.store, team, ref.id, opened.tool.team_id, opened.versions, selected)) };
  }

  /**
   * The version `ref` runs for `team` (the newest live one, or @N while pinnable), with its tool:
   * 404 for a version the team cannot call, 410 for a retired tool or a pin past its 30 days, 409 for
   * one not live.
   */
  async serving(team: Team, ref: ToolRef): Promise<{ tool: ToolRecord; version: VersionRecord }> {
    const { tool, live, maker } = await liveTool(this.store, team, ref.id);
    if (tool.retired_at) fail(410, retiredSentence(tool));
    let version: VersionRecord | null = live;
    if (ref.n !== null) {
      const pinned = await this.store.version(ref.id, ref.n);
      version = pinned && (maker || pinned.status === 'live') ? pinned : null;
      if (!version) fail(404, `Tool '${ref.id}' has no version ${ref.n} you can call.`);
      // only the versions after a pinned one tell whether its pin has run out
      const newer = await this.store.versionsAfter(ref.id, ref.n);
      if (pinExpired(version, newer, now())) {
        fail(
          410,
          `${ref.id}@${ref.n} stopped serving on ${pinnableUntil(version, newer)}, 30 days after a newer version went live; call ${ref.id} or ${ref.id}@${live!.version}.`,
        );
      }
    }
    if (!version) fail(409, `Tool '${ref.id}' has no live version yet: a version goes live when its check passes.`);
    if (version.status !== 'live') fail(409, `${ref.id}@${version.version} is ${version.status}, not live: ${version.reason ?? 'its check has not passed'}`);
    return { tool, version };
  }

  /** `callId`: made by the door, which names it in every answer, a refusal too */
  async run(team: Team, ref: ToolRef, input: unknown, options: RunOptions, callId: string): Promise<RunAnswer> {
    const { tool, version } = await this.serving(team, ref);
    return runTool(this.ctx, this.store, team, tool, version, input, options, callId);
  }

  async retire(team: Team, id: string): Promise<Record<string, unknown>> {
    await openOwnTool(this.store, team, id, 'retire');
    await this.store.retire(id);
    await liveToolsOf(this.ctx).changed();
    const note = `Retired ${id}: this cannot be undone. Every version stopped taking runs and no new version can be published; the id stays your team's, so no one else can take it.`;
    return { ...(await this.view(team, { id, n: null })), note };
  }

  async runs(team: Team, id: string, cursor: number | null): Promise<{ tool_id: string; runs: unknown[]; next_cursor: string | null }> {
    await openOwnTool(this.store, team, id, 'list the runs of');
    return { tool_id: id, ...(await this.store.runs(id, cursor)) };
  }
}

/** the hub of an app context, one for every door that runs tools */
export const hubOf = perContext((ctx) => new Hub(ctx));
