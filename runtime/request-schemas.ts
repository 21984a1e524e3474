// The request schemas of the own endpoints, in one place: the routes validate with them and
// /openapi.json publishes them, so the document cannot drift from what is enforced.
const usd = { anyOf: [{ type: 'number', minimum: 0 }, { type: 'string', pattern: '^\\s*\\d+(\\.\\d+)?\\s*$' }] };

export interface ObjectSchema {
  type: 'object';
  additionalProperties?: false;
  required?: string[];
  properties: Record<string, Record<string, unknown>>;
}

// exactly `0` or `1` (not 01, 1.0 or true): a string enum, since numbers would be coerced first
export const shelfQuery = { type: 'object', properties: { include_hidden: { type: 'string', enum: ['0', '1'], default: '0' } } } satisfies ObjectSchema;
export const searchQuery = {
  type: 'object', properties: { q: { type: 'string', default: '', maxLength: 500 }, limit: { type: 'integer', minimum: 1, maximum: 100, default: 25 } },
} satisfies ObjectSchema;
export const findQuery = { type: 'object', properties: { q: { type: 'string', default: '', maxLength: 500 } } } satisfies ObjectSchema;
export const ledgerQuery = { type: 'object', properties: { cursor: { type: 'string', pattern: '^[0-9]{1,15}$' } } } satisfies ObjectSchema;

export const sessionBody = {
  type: 'object', additionalProperties: false, required: ['token'], properties: { token: { type: 'string', minLength: 1, maxLength: 200 } },
} satisfies ObjectSchema;
export const keyBody = {
  type: 'object', additionalProperties: false, required: ['key'], properties: { key: { type: 'string', minLength: 1, maxLength: 4096, pattern: '\\S' } },
} satisfies ObjectSchema;
export const createTeamBody = {
  type: 'object', additionalProperties: false, required: ['name'], properties: { name: { type: 'string', minLength: 1, maxLength: 100 }, credit_usd: usd },
} satisfies ObjectSchema;
export const creditBody = { type: 'object', additionalProperties: false, required: ['usd'], properties: { usd } } satisfies ObjectSchema;

// Hub: the four files travel as JSON texts, checked one by one after this shape (runtime/hub/validate-files.ts).
const hubFiles = {
  type: 'object', additionalProperties: false, required: ['tool.json', 'input.schema.json', 'output.schema.json', 'check.json'],
  properties: Object.fromEntries(['tool.json', 'input.schema.json', 'output.schema.json', 'check.json'].map((f) => [f, { type: 'string', minLength: 1, maxLength: 16_384 }])),
};
export const publishBody = {
  type: 'object', additionalProperties: false, required: ['tool_id', 'files'],
  properties: { tool_id: { type: 'string', pattern: '^[a-z0-9-]{3,64}$', 'x-expected': '3 to 64 of a-z, 0-9 and -' }, files: hubFiles },
} satisfies ObjectSchema;
export const publishVersionBody = { type: 'object', additionalProperties: false, required: ['files'], properties: { files: hubFiles } } satisfies ObjectSchema;
export const runBody = { type: 'object', additionalProperties: false, required: ['input'], properties: { input: { type: 'object' } } } satisfies ObjectSchema;
export const runsQuery = { type: 'object', properties: { cursor: { type: 'string', pattern: '^[0-9]{1,15}$' } } } satisfies ObjectSchema;
