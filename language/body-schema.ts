// The JSON Schema of a routed capability's body: identity fields and filters, nothing else. The
// router validates calls with it and /openapi.json publishes it, so the two cannot drift apart.
import type { CapabilitySrc, FieldType, FilterSrc } from './types.ts';
import { FIELD_FORMATS } from './field-formats.ts';

/**
 * A web address, with or without its scheme (`stripe.com`, `linkedin.com/in/jane` and full URLs are
 * all addresses people paste): a dotted host, no spaces, then any path. Text that is no address at all
 * is refused before any provider is paid to look it up.
 */
const URL_PATTERN = '^(https?://)?[^\\s/?#@]+\\.[^\\s/?#@]+([/?#]\\S*)?$';

const TYPE: Record<FieldType, object> = {
  str: { type: 'string', maxLength: 2000 },
  url: { type: 'string', maxLength: 2000, pattern: URL_PATTERN, 'x-expected': 'a web address, such as linkedin.com/in/jane or https://stripe.com' },
  int: { type: 'integer' },
  number: { type: 'number' },
  bool: { type: 'boolean' },
  list: { type: 'array', maxItems: 100, items: { type: 'string' } },
  object: { type: 'object' },
};

export interface ContractInput {
  name: string;
  type: FieldType;
  identity: boolean;
  /** 'identity key', or 'filter: <the filter's note>' */
  note: string;
  filter?: FilterSrc;
  /** the form an identity value must have (a name in field-formats.ts) */
  format?: string;
}

/** What a routed call's body may hold: the identity fields, then the filters. */
export function contractInputs(cap: CapabilitySrc): ContractInput[] {
  return [
    ...Object.entries(cap.fields).map(([name, type]) => {
      const format = cap.formats?.[name];
      return { name, type, identity: true, note: format ? `identity key: ${FIELD_FORMATS[format].expected}` : 'identity key', format };
    }),
    ...Object.entries(cap.filters ?? {}).map(([name, filter]) => ({ name, type: filter.type, identity: false, note: `filter: ${filter.note}`, filter })),
  ];
}

/**
 * What a caller must send of a capability's identity fields, as JSON Schema: the fields every identity
 * set holds are `required`, and with several sets an `anyOf` of each set's `required` says one whole set
 * must come. It is what the router's 422 asks for ("Send one of these identity sets").
 */
export function identityRequirement(cap: CapabilitySrc): { required?: string[]; anyOf?: Array<{ required: string[] }> } {
  const common = requiredIdentityFields(cap);
  return {
    ...(common.length ? { required: common } : {}),
    ...(cap.identity.length > 1 ? { anyOf: cap.identity.map((set) => ({ required: [...set] })) } : {}),
  };
}

/** the identity fields in every identity set: a call without one of them is always refused */
export function requiredIdentityFields(cap: CapabilitySrc): string[] {
  const [first = [], ...rest] = cap.identity;
  return first.filter((f) => rest.every((set) => set.includes(f)));
}

/** No `default`s here: a validator that fills defaults would make them look like filters the caller sent. */
export function capabilityBodySchema(cap: CapabilitySrc): { type: 'object'; additionalProperties: false; properties: Record<string, Record<string, unknown>> } {
  const properties: Record<string, Record<string, unknown>> = {};
  for (const { name, type, note, filter, format } of contractInputs(cap)) {
    // a field's format is a stricter pattern than its type's, and names the form in the 422
    const form = format ? { pattern: FIELD_FORMATS[format].pattern, 'x-expected': FIELD_FORMATS[format].expected } : {};
    properties[name] = {
      ...TYPE[type],
      ...form,
      description: note,
      ...(filter?.min !== undefined ? { minimum: filter.min } : {}),
      ...(filter?.max !== undefined ? { maximum: filter.max } : {}),
    };
  }
  return { type: 'object', additionalProperties: false, properties };
}
