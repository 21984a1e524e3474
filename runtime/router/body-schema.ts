// The JSON Schema of a routed capability's body: identity fields and filters, nothing else. The
// router validates calls with it and /openapi.json publishes it, so the two cannot drift apart.
import type { CapabilitySrc, FieldType } from '../../build/types.ts';

const TYPE: Record<FieldType, object> = {
  str: { type: 'string', maxLength: 2000 }, url: { type: 'string', maxLength: 2000 }, int: { type: 'integer' }, number: { type: 'number' },
  bool: { type: 'boolean' }, list: { type: 'array', maxItems: 100, items: { type: 'string' } }, object: { type: 'object' },
};

/** No `default`s here: a validator that fills defaults would make them look like filters the caller sent. */
export function capabilityBodySchema(cap: CapabilitySrc): { type: 'object'; additionalProperties: false; properties: Record<string, Record<string, unknown>> } {
  const properties: Record<string, Record<string, unknown>> = {};
  for (const [f, t] of Object.entries(cap.fields)) properties[f] = { ...TYPE[t], description: 'identity key' };
  for (const [f, d] of Object.entries(cap.filters ?? {})) {
    properties[f] = { ...TYPE[d.type], description: `filter: ${d.note}`, ...(d.min !== undefined ? { minimum: d.min } : {}), ...(d.max !== undefined ? { maximum: d.max } : {}) };
  }
  return { type: 'object', additionalProperties: false, properties };
}
