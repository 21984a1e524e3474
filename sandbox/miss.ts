// A miss in the provider's own form: the status it answers (with its miss body), or a 200 body that
// meets its `when` condition, or the example with the contract's miss field emptied.
import type { CapabilitySrc, MissSrc, ResponseFieldSrc, ResponseSrc } from '../language/types.ts';
import { contractMiss, missWhen } from '../language/map-response.ts';
import { setAt } from './paths.ts';

/** The contract output field whose emptiness is a miss (`output.x == null` -> x). */
export function missField(cap: CapabilitySrc | null): string | null {
  return cap ? (contractMiss(cap)?.field ?? null) : null;
}

function merge(base: unknown, over: unknown): unknown {
  if (!base || !over || typeof base !== 'object' || typeof over !== 'object' || Array.isArray(base) || Array.isArray(over)) return over ?? base;
  const out: Record<string, unknown> = { ...(base as Record<string, unknown>) };
  for (const [k, v] of Object.entries(over)) out[k] = merge(out[k], v);
  return out;
}

function emptied(cap: CapabilitySrc | null, response: ResponseSrc | undefined, example: unknown): unknown {
  const body = example && typeof example === 'object' ? structuredClone(example) : {};
  const field = missField(cap);
  const raw = field && response ? response.output[field] : undefined;
  const spec: ResponseFieldSrc | null = raw === undefined ? null : typeof raw === 'string' ? { path: raw } : raw;
  if (!spec || !field || !cap) return body;
  return setAt(body, spec.path, contractMiss(cap)?.empty === '[]' ? [] : null);
}

export interface MissAnswer {
  status: number;
  body: unknown;
}

export function buildMiss(cap: CapabilitySrc | null, miss: MissSrc | null, response: ResponseSrc | undefined, example: unknown): MissAnswer {
  const when = miss?.when?.[0];
  // a miss body the router itself would read as a miss (its `when` rule) is answered as it is
  if (miss?.body !== undefined && missWhen(miss, miss.body)) return { status: 200, body: structuredClone(miss.body) };
  if (miss?.status?.length) return { status: miss.status[0], body: miss.body ?? emptied(cap, response, example) };
  if (when) {
    const body = merge(miss?.body ?? {}, example && typeof example === 'object' ? structuredClone(example) : {});
    return { status: 200, body: setAt(body, when.path, structuredClone(when.in[0])) };
  }
  return { status: 200, body: emptied(cap, response, miss?.body !== undefined ? merge(example, miss.body) : example) };
}
