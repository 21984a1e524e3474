// The hub's state, every write through the state module's atomic primitives: a tool id is claimed
// once (claim), version and run numbers come from counters (incr), statuses change by serialised
// per-record updates, earnings and run counts are counters. A shared backend only has to provide
// the same primitives.
import type { Atomics } from '../state/index.ts';
import { nowIso } from '../util/clock.ts';
import type { FileName, RunRecord, ToolRecord, VersionRecord } from './types.ts';

const toolKey = (id: string) => `hub:tool:${id}`;
const versionKey = (id: string, n: number) => `hub:version:${id}:${n}`;
const runKey = (id: string, n: number) => `hub:run:${id}:${n}`;
const versionSeq = (id: string) => `hub-versions:${id}`;
const runSeq = (id: string) => `hub-run-seq:${id}`;
const indexKey = (n: number) => `hub:tool-index:${n}`;
const TOOL_COUNT = 'hub-tool-count';
const earnedOf = (id: string, n: number) => `hub-earned:${id}@${n}`;
const runsOf = (id: string, n: number) => `hub-runs:${id}@${n}`;
const mcpPicksKey = (teamId: number) => `hub:mcp-picks:${teamId}`;

export const RUNS_PAGE = 50;

export class HubStore {
  constructor(private atomics: Atomics) {}

  /** a consistent read of one record (serialised with its writers; Atomics has no plain read) */
  private read<T>(key: string): Promise<T | null> {
    return this.atomics.update<T>(key, () => undefined);
  }

  tool(id: string): Promise<ToolRecord | null> {
    return this.read<ToolRecord>(toolKey(id));
  }

  /** the tool, claimed for the team when the id is free; whoever holds it otherwise */
  async claimTool(id: string, teamId: number): Promise<ToolRecord> {
    const fresh: ToolRecord = { tool_id: id, team_id: teamId, created_at: nowIso() };
    if (await this.atomics.claim(toolKey(id), fresh)) {
      // the index of every tool id (for the list a team may see): a numbered slot per claimed id
      await this.atomics.claim(indexKey(await this.atomics.incr(TOOL_COUNT)), { tool_id: id });
      return fresh;
    }
    return (await this.tool(id))!;
  }

  /** every tool id ever claimed, oldest first */
  async toolIds(): Promise<string[]> {
    const count = await this.atomics.counter(TOOL_COUNT);
    // (an object, not a bare string: storage keeps a string as it is, not as JSON)
    const slots = await Promise.all(Array.from({ length: count }, (_, i) => this.read<{ tool_id: string }>(indexKey(i + 1))));
    return slots.flatMap((s) => (s ? [s.tool_id] : []));
  }

  /** a new version numbered last + 1, stored `unchecked` before this answers */
  async addVersion(id: string, files: Record<FileName, string>, priceMicro: number): Promise<VersionRecord> {
    const version = await this.atomics.incr(versionSeq(id));
    const record: VersionRecord = { tool_id: id, version, status: 'unchecked', created_at: nowIso(), price_micro: priceMicro, files };
    await this.atomics.claim(versionKey(id, version), record);
    return record;
  }

  version(id: string, n: number): Promise<VersionRecord | null> {
    return this.read<VersionRecord>(versionKey(id, n));
  }

  /** the newest stored version that `fits`, read from the newest down; null when none does */
  async newest(id: string, fits: (v: VersionRecord) => boolean = () => true): Promise<VersionRecord | null> {
    for (let n = await this.atomics.counter(versionSeq(id)); n > 0; n--) {
      const v = await this.version(id, n);
      if (v && fits(v)) return v;
    }
    return null;
  }

  /** the newest live version (a live version never leaves live: usually a read or two) */
  newestLive(id: string): Promise<VersionRecord | null> {
    return this.newest(id, (v) => v.status === 'live');
  }

  /** the versions stored after version `n`, oldest first */
  versionsAfter(id: string, n: number): Promise<VersionRecord[]> {
    return this.versionsFrom(id, n + 1);
  }

  /** every stored version, oldest first */
  versions(id: string): Promise<VersionRecord[]> {
    return this.versionsFrom(id, 1);
  }

  private async versionsFrom(id: string, first: number): Promise<VersionRecord[]> {
    const last = await this.atomics.counter(versionSeq(id));
    const all = await Promise.all(Array.from({ length: Math.max(0, last - first + 1) }, (_, i) => this.version(id, first + i)));
    return all.filter((v): v is VersionRecord => v !== null);
  }

  /** change a version; `edit` answers the new record, or undefined to leave it */
  updateVersion(id: string, n: number, edit: (v: VersionRecord) => VersionRecord | undefined): Promise<VersionRecord | null> {
    return this.atomics.update<VersionRecord>(versionKey(id, n), (v) => (v ? edit(v) : undefined));
  }

  /** mark the tool retired (one write, so every version leaves the call road at once); the record after */
  retire(id: string): Promise<ToolRecord | null> {
    return this.atomics.update<ToolRecord>(toolKey(id), (t) => (t && !t.retired_at ? { ...t, retired_at: nowIso() } : undefined));
  }

  async addRun(id: string, run: Omit<RunRecord, 'run'>): Promise<RunRecord> {
    const n = await this.atomics.incr(runSeq(id));
    const record = { run: n, ...run };
    await this.atomics.claim(runKey(id, n), record);
    await this.atomics.incr(runsOf(id, run.version));
    if (run.price_micro > 0) await this.atomics.incr(earnedOf(id, run.version), run.price_micro);
    return record;
  }

  /** runs newest first, RUNS_PAGE at a time, below run number `before` (null: the newest) */
  async runs(id: string, before: number | null): Promise<{ runs: RunRecord[]; next_cursor: string | null }> {
    const last = await this.atomics.counter(runSeq(id));
    const top = Math.min(last, before === null ? last : before - 1);
    const numbers = Array.from({ length: Math.max(0, Math.min(RUNS_PAGE, top)) }, (_, i) => top - i);
    const runs = (await Promise.all(numbers.map((n) => this.read<RunRecord>(runKey(id, n))))).filter((r): r is RunRecord => r !== null);
    const lowest = numbers[numbers.length - 1];
    return { runs, next_cursor: lowest !== undefined && lowest > 1 ? String(lowest) : null };
  }

  async tally(id: string, n: number): Promise<{ runs: number; earnings_micro: number }> {
    const [runs, earnings_micro] = await Promise.all([this.atomics.counter(runsOf(id, n)), this.atomics.counter(earnedOf(id, n))]);
    return { runs, earnings_micro };
  }

  /** the other teams' tool ids a team added to its MCP set, oldest first (none: never added any) */
  async mcpPicks(teamId: number): Promise<string[]> {
    return (await this.read<{ tool_ids: string[] }>(mcpPicksKey(teamId)))?.tool_ids ?? [];
  }

  /** add `id` to (or drop it from) the team's MCP picks in one serialised write; `edit` answers the ids after, or undefined to leave them */
  async editMcpPicks(teamId: number, edit: (ids: string[]) => string[] | undefined): Promise<string[]> {
    const after = await this.atomics.update<{ tool_ids: string[] }>(mcpPicksKey(teamId), (cur) => {
      const ids = edit(cur?.tool_ids ?? []);
      return ids && { tool_ids: ids };
    });
    return after?.tool_ids ?? [];
  }
}
