// The tool record as GET /hub/tools/{id} answers it: the maker sees every version with its status,
// reason, earnings and runs, and its files; another team sees live versions only.
import { fail } from '../util/fail.ts';
import type { Opened } from './access.ts';
import { newestLive, pinnableUntil } from './pin.ts';
import { specOf } from './spec.ts';
import type { HubStore } from './store.ts';
import type { VersionRecord } from './types.ts';

export async function toolView(store: HubStore, opened: Opened, makerSlug: string, pinned: number | null): Promise<Record<string, unknown>> {
  const { tool, versions, maker } = opened;
  const retired = Boolean(tool.retired_at);
  const shown = maker ? versions : versions.filter((v) => v.status === 'live');
  const live = newestLive(versions);
  const selected = pinned === null ? (maker ? versions.at(-1) : live) : shown.find((v) => v.version === pinned);
  if (!selected) fail(404, pinned === null ? `Tool '${tool.tool_id}' has no version yet.` : `Tool '${tool.tool_id}' has no version ${pinned} you can see.`);
  const spec = specOf(selected);
  const status = (v: VersionRecord) => (retired ? 'retired' : v.status);
  const rows = await Promise.all(
    shown.map(async (v) => {
      const until = pinnableUntil(v, versions);
      const row: Record<string, unknown> = {
        version: v.version,
        status: status(v),
        created_at: v.created_at,
        ...(v.live_at ? { live_at: v.live_at } : {}),
        ...(until ? { pinnable_until: until } : {}),
      };
      if (maker) Object.assign(row, v.reason ? { reason: v.reason } : {}, await store.tally(tool.tool_id, v.version));
      return row;
    }),
  );
  const view: Record<string, unknown> = {
    tool_id: tool.tool_id,
    team: makerSlug,
    name: spec.tool.name,
    summary: spec.tool.summary,
    price_usd: selected.price_micro / 1_000_000,
    price_micro: selected.price_micro,
    status: status(selected),
    version: selected.version,
    live_version: live?.version ?? null,
    input_schema: spec.input_schema,
    output_schema: spec.output_schema,
    versions: rows,
    ...(tool.retired_at ? { retired_at: tool.retired_at } : {}),
  };
  if (maker) {
    const tallies = rows as Array<{ runs: number; earnings_micro: number }>;
    Object.assign(view, {
      runs: tallies.reduce((n, r) => n + r.runs, 0),
      earnings_micro: tallies.reduce((n, r) => n + r.earnings_micro, 0),
      ...(selected.reason ? { reason: selected.reason } : {}),
      ...(selected.check ? { check: selected.check } : {}),
      files: selected.files,
    });
  }
  return view;
}
