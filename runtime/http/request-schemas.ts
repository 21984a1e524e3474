// The request schemas of the own endpoints, in one place: a route names them in its declaration,
// the registration validates with them (register-routes.ts) and /openapi.json publishes them, so the
// document cannot drift from what is enforced.
import { FEEDBACK_KINDS, USEFULNESS } from '../feedback/kinds.ts';

const usd = {
  anyOf: [
    { type: 'number', minimum: 0 },
    { type: 'string', pattern: '^\\s*\\d+(\\.\\d+)?\\s*$' },
  ],
  'x-expected': 'a USD amount of at least 0, as a number (2.5) or decimal text ("2.50")',
};

export interface ObjectSchema {
  type: 'object';
  additionalProperties?: false;
  required?: string[];
  properties: Record<string, Record<string, unknown>>;
}

// exactly `0` or `1` (not 01, 1.0 or true): a string enum, since numbers would be coerced first
export const shelfQuery = { type: 'object', properties: { include_hidden: { type: 'string', enum: ['0', '1'], default: '0' } } } satisfies ObjectSchema;
export const searchQuery = {
  type: 'object',
  properties: { q: { type: 'string', default: '', maxLength: 500 }, limit: { type: 'integer', minimum: 1, maximum: 100, default: 25 } },
} satisfies ObjectSchema;
export const findQuery = { type: 'object', properties: { q: { type: 'string', default: '', maxLength: 500 } } } satisfies ObjectSchema;
// `?cursor=` (empty, as the contract writes it) is the first page
export const ledgerQuery = {
  type: 'object',
  properties: {
    cursor: { type: 'string', pattern: '^[0-9]{0,15}$', 'x-expected': 'the next_cursor of the previous page (empty or absent for the first page)' },
  },
} satisfies ObjectSchema;

export const sessionBody = {
  type: 'object',
  additionalProperties: false,
  required: ['token'],
  properties: { token: { type: 'string', minLength: 1, maxLength: 200 } },
} satisfies ObjectSchema;
export const keyBody = {
  type: 'object',
  additionalProperties: false,
  required: ['key'],
  properties: {
    // what a header can carry is checked by the route, which names the provider (runtime/routes/teams.ts)
    key: {
      type: 'string',
      minLength: 1,
      maxLength: 4096,
      description: 'the key alone, as the provider issued it: visible Latin-1 characters (U+0020–U+007E, U+00A0–U+00FF)',
    },
  },
} satisfies ObjectSchema;
// a token's name and expiry, when a team or the admin creates one (runtime/routes/token-options.ts reads it)
export const tokenBody = {
  type: 'object',
  additionalProperties: false,
  properties: {
    name: {
      type: 'string',
      minLength: 1,
      maxLength: 64,
      pattern: '^[^\\p{Cc}\\p{Cf}\\p{Cs}]*[^\\s\\p{Cc}\\p{Cf}\\p{Cs}][^\\p{Cc}\\p{Cf}\\p{Cs}]*$',
      'x-expected': '1 to 64 characters of visible text, such as "ci deploys"',
    },
    expires_at: {
      type: 'string',
      maxLength: 40,
      description: 'when the token stops acting: an ISO 8601 date-time with a zone (2027-01-31T00:00:00Z), or a date (2027-01-31, midnight UTC); in the future',
    },
  },
} satisfies ObjectSchema;
export const tokenParams = {
  type: 'object',
  required: ['token_id'],
  properties: { token_id: { type: 'string', pattern: '^tok_[0-9a-f]{16}$', 'x-expected': 'a token id as listings show it (tok_ and 16 hex digits)' } },
} satisfies ObjectSchema;
export const createTeamBody = {
  type: 'object',
  additionalProperties: false,
  required: ['name'],
  properties: { name: { type: 'string', minLength: 1, maxLength: 100 }, credit_usd: usd },
} satisfies ObjectSchema;
export const creditBody = { type: 'object', additionalProperties: false, required: ['usd'], properties: { usd } } satisfies ObjectSchema;

// Feedback and reviews (runtime/feedback/). `x-expected` names the form a pattern wants in its 422;
// `x-max-bytes` bounds a value's JSON text (validate.ts enforces both).
// visible: neither white space nor a control, format (zero-width) or lone surrogate code point
const text = (maxLength: number) => ({
  type: 'string',
  minLength: 1,
  maxLength,
  pattern: '[^\\s\\p{Cc}\\p{Cf}\\p{Cs}]',
  'x-expected': 'text with at least one visible character',
});
export const CONTEXT_MAX_BYTES = 16 * 1024;
export const feedbackBody = {
  type: 'object',
  additionalProperties: false,
  required: ['kind', 'message'],
  properties: {
    kind: { type: 'string', enum: [...FEEDBACK_KINDS] },
    message: { ...text(4000), description: '1 to 4000 characters' },
    endpoint_id: { type: 'string', minLength: 1, maxLength: 200, description: 'the catalog operation it is about' },
    capability: { type: 'string', minLength: 1, maxLength: 200, description: 'the capability it is about' },
    context: {
      type: 'object',
      'x-max-bytes': CONTEXT_MAX_BYTES,
      description: 'anything that helps reproduce it (a call_id, a request); at most 16 KiB as JSON',
    },
  },
} satisfies ObjectSchema;
export const feedbackParams = {
  type: 'object',
  required: ['feedback_id'],
  properties: { feedback_id: { type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER } },
} satisfies ObjectSchema;
export const reviewBody = {
  type: 'object',
  additionalProperties: false,
  required: ['endpoint_id', 'usefulness', 'reason'],
  properties: {
    endpoint_id: {
      type: 'string',
      minLength: 1,
      maxLength: 200,
      description: 'a catalog operation id, e.g. hunter.people.email.find, or hub:<tool_id> for a live hub tool',
    },
    usefulness: { type: 'string', enum: [...USEFULNESS] },
    reason: { ...text(500), description: '1 to 500 characters, shown to every catalog reader' },
    client: { type: 'string', maxLength: 64, description: 'what the team called it from, e.g. a script or agent name' },
  },
} satisfies ObjectSchema;

// Hub: the four files travel as JSON texts, checked one by one after this shape (runtime/hub/validate-files.ts).
const hubFiles = {
  type: 'object',
  additionalProperties: false,
  required: ['tool.json', 'input.schema.json', 'output.schema.json', 'check.json'],
  properties: Object.fromEntries(
    ['tool.json', 'input.schema.json', 'output.schema.json', 'check.json'].map((f) => [f, { type: 'string', minLength: 1, maxLength: 16_384 }]),
  ),
};
export const publishBody = {
  type: 'object',
  additionalProperties: false,
  required: ['tool_id', 'files'],
  properties: { tool_id: { type: 'string', pattern: '^[a-z0-9-]{3,64}$', 'x-expected': '3 to 64 of a-z, 0-9 and -' }, files: hubFiles },
} satisfies ObjectSchema;
export const publishVersionBody = { type: 'object', additionalProperties: false, required: ['files'], properties: { files: hubFiles } } satisfies ObjectSchema;
export const runBody = { type: 'object', additionalProperties: false, required: ['input'], properties: { input: { type: 'object' } } } satisfies ObjectSchema;
export const toolListQuery = {
  type: 'object',
  properties: {
    mine: { type: 'string', enum: ['0', '1'] },
    q: { type: 'string', maxLength: 500 },
    capability: { type: 'string', maxLength: 100 },
    maker: { type: 'string', maxLength: 100 },
    max_price_usd: { type: 'string', pattern: '^[0-9]{1,10}(\\.[0-9]{1,6})?$', 'x-expected': 'a USD amount such as 0.05' },
    limit: { type: 'integer', minimum: 1, maximum: 100, default: 50 },
    cursor: { type: 'string', pattern: '^[0-9]{0,9}$', 'x-expected': 'the next_cursor of the previous page (empty or absent for the first page)' },
  },
} satisfies ObjectSchema;
// `?cursor=` (empty, as docs/hub.md writes the list) is the first page
export const runsQuery = {
  type: 'object',
  properties: {
    cursor: { type: 'string', pattern: '^[0-9]{0,15}$', 'x-expected': 'the next_cursor of the previous page (empty or absent for the first page)' },
  },
} satisfies ObjectSchema;
