// The live tools, kept in memory for search and the store's list: one row per tool that is not
// retired and has a live version, at its newest live version. Publish, check and retire bump a
// counter in the state; a read that finds the counter moved loads the rows again, so every instance
// on a shared backend sees another's publish on its next read (as reviews follow their counter).
import { perContext, type AppContext } from '../context/context.ts';
import { specOf } from './spec.ts';
import { stepTarget } from './step-target.ts';
import { HubStore } from './store.ts';
import type { CheckResult } from './types.ts';

const WRITES = 'hub-live-writes';

export interface LiveTool {
  tool_id: string;
  team_id: number;
  name: string;
  summary: string;
  version: number;
  price_micro: number;
  live_at: string;
  check: CheckResult | null;
  /** each step's `call`, in order */
  calls: string[];
  input_schema: Record<string, unknown>;
}

/** whether a tool's steps can be served now, and why not in sentences */
export interface Serving {
  ok: boolean;
  problems: string[];
}

export class LiveTools {
  private rows: LiveTool[] = [];
  private seen = -1;
  private loading: Promise<LiveTool[]> | null = null;
  private store: HubStore;

  constructor(private ctx: AppContext) {
    this.store = new HubStore(ctx.state.atomics);
  }

  /** after a write that may change which tools are live (publish, check, retire) */
  async changed(): Promise<void> {
    // the write is stored already: a bump that fails only delays the lists until the next one
    await this.ctx.state.atomics.incr(WRITES).catch(() => {});
  }

  /** the live tools now, in id order */
  async current(): Promise<LiveTool[]> {
    const writes = await this.ctx.state.atomics.counter(WRITES);
    if (writes === this.seen) return this.rows;
    // one load at a time; a read that arrives meanwhile waits for it
    this.loading ??= this.load(writes).finally(() => {
      this.loading = null;
    });
    return this.loading;
  }

  private async load(writes: number): Promise<LiveTool[]> {
    const rows: LiveTool[] = [];
    for (const id of (await this.store.toolIds()).sort()) {
      const tool = await this.store.tool(id);
      if (!tool || tool.retired_at) continue;
      const live = await this.store.newestLive(id);
      if (!live) continue;
      const spec = specOf(live);
      rows.push({
        tool_id: id,
        team_id: tool.team_id,
        name: spec.tool.name,
        summary: spec.tool.summary,
        version: live.version,
        price_micro: live.price_micro,
        live_at: live.live_at ?? live.created_at,
        check: live.check ?? null,
        calls: spec.tool.steps.map((s) => s.call),
        input_schema: spec.input_schema,
      });
    }
    this.rows = rows;
    this.seen = writes;
    return rows;
  }

  /**
   * Whether each step can be served today: its capability or operation is still in the catalog and
   * not every child's circuit is open. Read at each answer, as the catalog and circuits change.
   */
  serving(calls: string[]): Serving {
    const { runtime } = this.ctx.catalog;
    const health = this.ctx.router.deps.health;
    const problems: string[] = [];
    for (const call of calls) {
      const target = stepTarget(runtime, call);
      if (!target) problems.push(`${call} is no longer in the catalog.`);
      else if (target.kind === 'operation' && health.isOpen(target.op.endpoint_id)) problems.push(`${call} keeps failing (its circuit is open).`);
      else if (target.kind === 'routed' && runtime.capabilities[target.capability].children.every((id) => health.isOpen(id)))
        problems.push(`Every provider of ${call} keeps failing (all their circuits are open).`);
    }
    return { ok: problems.length === 0, problems };
  }

  /** the capabilities the steps use: a routed step's, an operation's as search files it (`capabilityOf`) */
  capabilities(calls: string[], capabilityOf: (endpointId: string) => string | undefined): string[] {
    const { runtime } = this.ctx.catalog;
    const caps = calls.flatMap((call) => {
      const target = stepTarget(runtime, call);
      const cap = target?.kind === 'routed' ? target.capability : target && capabilityOf(target.op.endpoint_id);
      return cap ? [cap] : [];
    });
    return [...new Set(caps)];
  }
}

export const liveToolsOf = perContext((ctx) => new LiveTools(ctx));
