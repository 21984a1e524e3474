// List fields of a hit: the example's items, rotated by the subject's hash, cycled or synthesised up to
// the row count the caller asked for; copies get numbered so rows stay distinct.
import type { ResponseFieldSrc } from '../language/types.ts';
import { getPath, setPath } from '../language/json-path.ts';
import { itemPaths } from '../language/map-response.ts';
import { setAt } from './paths.ts';

/** rows a hit returns when the caller sends no limit and the example has none */
export const FEW_ROWS = 3;

const clone = <T>(v: T): T => (v === undefined ? v : structuredClone(v));

function matches(item: unknown, where: Record<string, unknown> | undefined): boolean {
  return !where || Object.entries(where).every(([k, v]) => getPath(item, k) === v);
}

/** Each raw path an item field reads, with the field's name (a combined field's paths are named by their last segment). */
function itemFields(spec: ResponseFieldSrc): Array<[string, string]> {
  return Object.entries(spec.items ?? {}).flatMap(([field, s]) => {
    const paths = itemPaths(s);
    return paths.map((p): [string, string] => [paths.length > 1 ? String(p.split('.').pop()) : field, p]);
  });
}

function syntheticItem(spec: ResponseFieldSrc, i: number): Record<string, unknown> {
  const item: Record<string, unknown> = {};
  for (const [field, path] of itemFields(spec)) {
    setPath(item, path, /^(position|rank|likes|count|similarity)$/.test(field) ? i + 1 : `${field} ${i + 1}`);
  }
  return item;
}

function renumber(item: unknown, spec: ResponseFieldSrc, i: number, copy: boolean): void {
  if (!item || typeof item !== 'object') return;
  for (const [field, path] of itemFields(spec)) {
    const v = getPath(item, path);
    if (/^(position|rank)$/.test(field) && typeof v === 'number') setPath(item as Record<string, unknown>, path, i + 1);
    else if (copy && typeof v === 'string' && v)
      setPath(item as Record<string, unknown>, path, /^https?:/.test(v) ? `${v}${v.includes('#') ? '' : '#'}${i + 1}` : `${v} (${i + 1})`);
  }
}

/** How many rows a hit answers: the limit sent (up to the example's size or a few), else the example's size. */
export function rowTarget(exampleLength: number, limit: number | null): number {
  const natural = Math.max(exampleLength, 1);
  return limit !== null && limit > 0 ? Math.min(limit, Math.max(exampleLength, FEW_ROWS)) : natural;
}

/** Rewrite the list at `spec.path`; returns the body (a new one when the list is the whole body). */
export function fillList(body: unknown, spec: ResponseFieldSrc, limit: number | null, h: number): unknown {
  const current = getPath(body, spec.path);
  const pool = (Array.isArray(current) ? current : []).filter((it) => matches(it, spec.where));
  const n = rowTarget(pool.length, limit);
  const rot = pool.length ? h % pool.length : 0;
  const rows: unknown[] = [];
  for (let i = 0; i < n; i++) {
    const copy = i >= pool.length;
    const item = pool.length ? clone(pool[(i + rot) % pool.length]) : spec.items ? syntheticItem(spec, i) : `${spec.path.split('.').pop()} ${i + 1}`;
    if (spec.where && item && typeof item === 'object') for (const [k, v] of Object.entries(spec.where)) setPath(item as Record<string, unknown>, k, v);
    renumber(item, spec, i, copy && pool.length > 0);
    rows.push(item);
  }
  return setAt(body, spec.path, rows);
}
