// From a validated body to what the planner needs: identity fields with derived forms filled in,
// filters with their defaults, and which filters the caller actually sent.
import type { CapabilitySrc } from './types.ts';
import { deriveRules } from './derived-fields.ts';

export interface PreparedCall {
  fields: Record<string, unknown>;
  sentFilters: string[];
  limit: number;
}

/** A value the caller really gave: not missing, not an empty string, not an empty list. */
export const present = (v: unknown): boolean => v !== undefined && v !== null && v !== '' && !(Array.isArray(v) && v.length === 0);

export function prepareCall(cap: CapabilitySrc, body: Record<string, unknown>): PreparedCall {
  const fields: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(body)) if (present(v)) fields[k] = typeof v === 'string' ? v.trim() : v;
  // Derivations can chain (handle -> url -> ...): apply until nothing changes.
  for (let pass = 0, changed = true; changed && pass < 4; pass++) {
    changed = false;
    for (const [target, d] of Object.entries(cap.derive ?? {})) {
      if (present(fields[target]) || !d.from.every((f) => present(fields[f]))) continue;
      const value = deriveRules[d.rule](...d.from.map((f) => fields[f]));
      if (present(value)) {
        fields[target] = value;
        changed = true;
      }
    }
  }
  const filters = cap.filters ?? {};
  const sentFilters = Object.keys(filters).filter((f) => present(body[f]));
  for (const [f, def] of Object.entries(filters)) if (!present(fields[f]) && def.default !== undefined && def.default !== null) fields[f] = def.default;
  const limit = typeof fields.limit === 'number' ? fields.limit : 1;
  return { fields, sentFilters, limit };
}
