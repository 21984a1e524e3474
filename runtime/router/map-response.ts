// Maps a provider's answer into a capability's output contract, per the child's `response` block,
// and decides the contract miss. Used by the router, the sandbox and the build (routed examples).
import type { CapabilitySrc, ResponseFieldSrc, ResponseSrc } from '../../build/types.ts';
import { getPath } from '../util/json-path.ts';
import { transforms } from './transforms.ts';

function mapField(spec: string | ResponseFieldSrc, raw: unknown): unknown {
  const s: ResponseFieldSrc = typeof spec === 'string' ? { path: spec } : spec;
  let value = getPath(raw, s.path);
  if (Array.isArray(value) && s.where) {
    const where = Object.entries(s.where);
    value = value.filter((item) => where.every(([k, v]) => getPath(item, k) === v));
  }
  if (Array.isArray(value) && s.items) {
    const items = Object.entries(s.items);
    value = value.map((item) => Object.fromEntries(items.map(([k, p]) => [k, getPath(item, p) ?? null])));
  }
  if (s.values) value = value === undefined || value === null ? null : (s.values[String(value)] ?? null);
  if (s.transform) value = transforms[s.transform](value);
  return value === undefined ? null : value;
}

/** Every contract output field, null where the child gives nothing. */
export function mapOutput(cap: CapabilitySrc, response: ResponseSrc, raw: unknown): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [field, def] of Object.entries(cap.output)) {
    const spec = response.output[field];
    out[field] = spec === undefined ? (def.type === 'list' ? [] : null) : mapField(spec, raw);
    if (def.type === 'list' && out[field] === null) out[field] = [];
  }
  return out;
}

/** The contract's miss condition: `output.x == null` or `output.x == []`. */
export function isContractMiss(cap: CapabilitySrc, output: Record<string, unknown>): boolean {
  const m = /^output\.([a-z0-9_]+) == (null|\[\])$/.exec(cap.miss);
  if (!m) return false;
  const v = output[m[1]];
  // An empty object is no record either: providers answer `{data: {}}` for "not found".
  const emptyObject = typeof v === 'object' && v !== null && !Array.isArray(v) && Object.keys(v).length === 0;
  return m[2] === 'null' ? v === null || v === undefined || v === '' || emptyObject : !Array.isArray(v) || v.length === 0;
}

/** The empty output a miss answers with. */
export function missOutput(cap: CapabilitySrc): Record<string, unknown> {
  return Object.fromEntries(Object.entries(cap.output).map(([f, d]) => [f, d.type === 'list' ? [] : null]));
}

/** Rows billed by a per_result child: the `rows` list, else the first list field of the output. */
export function countRows(cap: CapabilitySrc, response: ResponseSrc, raw: unknown, output: Record<string, unknown>): number {
  if (response.rows) {
    const v = getPath(raw, response.rows);
    return Array.isArray(v) ? v.length : 0;
  }
  const listField = Object.entries(cap.output).find(([, d]) => d.type === 'list')?.[0];
  const v = listField ? output[listField] : null;
  return Array.isArray(v) ? v.length : 0;
}
