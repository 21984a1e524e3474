// Maps a provider's answer into a capability's output contract, per the child's `response` block,
// and decides the contract miss. Used by the router, the sandbox and the build (routed examples).
import type { CapabilitySrc, ItemFieldSrc, MissSrc, ResponseFieldSrc, ResponseSrc } from './types.ts';
import { getPath } from './json-path.ts';
import { transforms } from './transforms.ts';
import { perObject } from './remember.ts';

/** The raw paths one item field reads (several when a transform combines them). */
export const itemPaths = (spec: ItemFieldSrc): string[] => (typeof spec === 'string' ? [spec] : [spec.path].flat());

function itemField(item: unknown, spec: ItemFieldSrc): unknown {
  if (typeof spec === 'string') return getPath(item, spec) ?? null;
  const raw = Array.isArray(spec.path) ? spec.path.map((p) => getPath(item, p)) : getPath(item, spec.path);
  return transforms[spec.transform](raw) ?? null;
}

function mapField(spec: string | ResponseFieldSrc, raw: unknown): unknown {
  const s: ResponseFieldSrc = typeof spec === 'string' ? { path: spec } : spec;
  let value = getPath(raw, s.path);
  if (Array.isArray(value) && s.where) {
    const where = Object.entries(s.where);
    value = value.filter((item) => where.every(([k, v]) => getPath(item, k) === v));
  }
  if (Array.isArray(value) && s.items) {
    const items = Object.entries(s.items);
    value = value.map((item) => Object.fromEntries(items.map(([k, p]) => [k, itemField(item, p)])));
  }
  if (s.values) value = value === undefined || value === null ? null : (s.values[String(value)] ?? null);
  if (s.transform) value = transforms[s.transform](value);
  return value === undefined ? null : value;
}

interface OutputShape {
  fields: Array<{ name: string; list: boolean }>;
  /** the first list field: what a per_result child bills by when it names no `rows` */
  listField: string | null;
  /** the contract's miss condition, `output.<field> == null` or `== []` */
  miss: { field: string; empty: 'null' | '[]' } | null;
}

/** A capability's output fields in contract order, worked out once per capability. */
const shapeOf = perObject((cap: CapabilitySrc): OutputShape => {
  const fields = Object.entries(cap.output).map(([name, def]) => ({ name, list: def.type === 'list' }));
  const m = /^output\.([a-z0-9_]+) == (null|\[\])$/.exec(cap.miss);
  return { fields, listField: fields.find((f) => f.list)?.name ?? null, miss: m ? { field: m[1], empty: m[2] as 'null' | '[]' } : null };
});

/** The contract's miss condition, parsed: which output field, and whether empty means null or []. */
export const contractMiss = (cap: CapabilitySrc): OutputShape['miss'] => shapeOf(cap).miss;

/** Every contract output field, null where the child gives nothing. */
export function mapOutput(cap: CapabilitySrc, response: ResponseSrc, raw: unknown): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const { name, list } of shapeOf(cap).fields) {
    const spec = response.output[name];
    const value = spec === undefined ? null : mapField(spec, raw);
    out[name] = list && value === null ? [] : value;
  }
  return out;
}

/** The contract's miss condition: `output.x == null` or `output.x == []`. */
export function isContractMiss(cap: CapabilitySrc, output: Record<string, unknown>): boolean {
  const { miss } = shapeOf(cap);
  if (!miss) return false;
  const v = output[miss.field];
  // An empty object is no record either: providers answer `{data: {}}` for "not found".
  const emptyObject = typeof v === 'object' && v !== null && !Array.isArray(v) && Object.keys(v).length === 0;
  return miss.empty === 'null' ? v === null || v === undefined || v === '' || emptyObject : !Array.isArray(v) || v.length === 0;
}

/** The empty output a miss answers with: one frozen object per capability, built on first use. */
export const missOutput = perObject(
  (cap: CapabilitySrc): Readonly<Record<string, unknown>> =>
    Object.freeze(Object.fromEntries(shapeOf(cap).fields.map(({ name, list }) => [name, list ? Object.freeze([]) : null]))),
);

/** Rows billed by a per_result child: the `rows` list, else the first list field of the output. */
export function countRows(cap: CapabilitySrc, response: ResponseSrc, raw: unknown, output: Record<string, unknown>): number {
  if (response.rows) {
    const v = getPath(raw, response.rows);
    return Array.isArray(v) ? v.length : 0;
  }
  const { listField } = shapeOf(cap);
  const v = listField ? output[listField] : null;
  return Array.isArray(v) ? v.length : 0;
}

/** The provider's own miss condition on its answer (`miss.when`: a path holding one of the listed values). */
const same = (a: unknown, b: unknown) => a === b || (a !== null && a !== undefined && b !== null && String(a) === String(b));

export function missWhen(miss: MissSrc | null, body: unknown): boolean {
  return (miss?.when ?? []).some((w) => {
    const v = getPath(body, w.path);
    return w.in.some((x) => (x === null ? v === null || v === undefined : same(v, x)));
  });
}
