// A team's own feedback and reviews, indexed per team so the account page and `svc me` list them
// without a scan of every team's records. An index is one record of references (the id that orders
// it and the key of the record it names), changed only through the atomic per-record update, so
// concurrent writers on any backend never lose each other's entries.
import type { Atomics } from '../state/atomics.ts';

/** how many records a listing answers at a time */
export const TEAM_PAGE = 50;
/**
 * the newest references an index keeps: each submit rewrites the team's index whole, so its size is
 * bounded (a team's older feedback and reviews stay stored and readable by id, not listed)
 */
export const TEAM_INDEX_MAX = 1000;

export interface Ref {
  /** orders the listing: a larger id is newer */
  id: number;
  /** the record it names; a second ref to the same record replaces the first when its id is larger */
  key: string;
}

interface Index {
  refs: Ref[];
}

export type IndexName = 'feedback' | 'reviews';

const indexKey = (name: IndexName, teamId: number) => `team-${name}:${teamId}`;

/** add refs to the team's index (idempotent: a migration may run it on every start) */
export async function indexRefs(atomics: Atomics, name: IndexName, teamId: number, refs: readonly Ref[]): Promise<void> {
  await atomics.update<Index>(indexKey(name, teamId), (current) => {
    const kept = current?.refs ?? [];
    const byKey = new Map(kept.map((r) => [r.key, r]));
    // a full index takes nothing older than its oldest: a migration re-offering old refs changes nothing
    const floor = kept.length >= TEAM_INDEX_MAX ? Math.min(...kept.map((r) => r.id)) : 0;
    let changed = false;
    for (const ref of refs) {
      if (ref.id <= floor || (byKey.get(ref.key)?.id ?? 0) >= ref.id) continue;
      byKey.set(ref.key, ref);
      changed = true;
    }
    if (!changed) return undefined;
    const all = [...byKey.values()];
    return { refs: all.length > TEAM_INDEX_MAX ? all.sort((a, b) => b.id - a.id).slice(0, TEAM_INDEX_MAX) : all };
  });
}

/** one page of the team's refs, newest first, below `before` (null: from the newest) */
export async function pageOfRefs(atomics: Atomics, name: IndexName, teamId: number, before: number | null): Promise<{ refs: Ref[]; next: number | null }> {
  const all = ((await atomics.get<Index>(indexKey(name, teamId)))?.refs ?? []).filter((r) => before === null || r.id < before).sort((a, b) => b.id - a.id);
  const refs = all.slice(0, TEAM_PAGE);
  return { refs, next: all.length > TEAM_PAGE ? refs[refs.length - 1].id : null };
}

/** group refs by team, for a migration that indexes records written before the indexes existed */
export function byTeam<T>(records: Iterable<T>, teamOf: (r: T) => number, refOf: (r: T) => Ref): Map<number, Ref[]> {
  const out = new Map<number, Ref[]>();
  for (const r of records) {
    const team = teamOf(r);
    const refs = out.get(team);
    if (refs) refs.push(refOf(r));
    else out.set(team, [refOf(r)]);
  }
  return out;
}
