// The shapes of tool.json and check.json (the two schema files are JSON Schemas themselves, checked
// against the draft 2020-12 meta-schema instead).
const value = { type: ['string', 'number', 'integer', 'boolean', 'null', 'array', 'object'] };

export const toolFileSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['name', 'summary', 'price_usd', 'steps', 'output'],
  properties: {
    name: { type: 'string', minLength: 1, maxLength: 100 },
    summary: { type: 'string', minLength: 1, maxLength: 500 },
    // any value here: validate-files.ts says what a price is in one sentence, where the branches of
    // an anyOf would each speak ("must be >= 0", "must be string")
    price_usd: {},
    steps: {
      type: 'array',
      minItems: 1,
      maxItems: 10,
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['id', 'call', 'with'],
        properties: {
          id: { type: 'string', pattern: '^[a-z][a-z0-9_]{0,31}$' },
          call: { type: 'string', minLength: 1, maxLength: 200 },
          with: { type: 'object', maxProperties: 50, additionalProperties: value },
        },
      },
    },
    output: { type: 'object', minProperties: 1, maxProperties: 50, additionalProperties: value },
  },
};

export const checkFileSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['input'],
  properties: { input: { type: 'object' }, expect: { type: 'object' } },
};
