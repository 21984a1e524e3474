// The own endpoints as OpenAPI operations. Each route group's paths are listed here, in SPEC order.
type Op = { summary: string; tags: string[]; parameters?: unknown[]; requestBody?: unknown; responses: Record<string, unknown>; security?: unknown[] };

const json = (description: string, schema: unknown = { type: 'object' }) => ({ description, content: { 'application/json': { schema } } });
const err = (description: string) => json(description, { $ref: '#/components/schemas/HTTPError' });
const invalid = { description: 'Validation error', content: { 'application/json': { schema: { $ref: '#/components/schemas/HTTPValidationError' } } } };
const q = (name: string, schema: unknown, description: string) => ({ name, in: 'query', required: false, schema, description });
const p = (name: string, description: string) => ({ name, in: 'path', required: true, schema: { type: 'string' }, description });

export const ownPaths: Record<string, Record<string, Op>> = {
  '/meta': { get: { summary: 'Proxy URL, release and dashboard versions, catalog hash', tags: ['meta'], responses: { 200: json('Meta') } } },
  '/catalog/platforms': { get: { summary: 'Platform shelves, busiest first', tags: ['catalog'], responses: { 200: json('Platforms') } } },
  '/catalog/platforms/{slug}': {
    get: {
      summary: 'One shelf, operations grouped by capability', tags: ['catalog'],
      parameters: [p('slug', 'platform slug'), q('include_hidden', { type: 'integer', enum: [0, 1], default: 0 }, '1 keeps account and utility operations')],
      responses: { 200: json('Shelf'), 404: err('Unknown platform'), 422: invalid },
    },
  },
  '/catalog/search': {
    get: {
      summary: 'Token-matching search over every operation', tags: ['catalog'],
      parameters: [q('q', { type: 'string', default: '' }, 'words'), q('limit', { type: 'integer', minimum: 1, maximum: 100, default: 25 }, 'rows')],
      responses: { 200: json('Results'), 422: invalid },
    },
  },
  '/catalog/endpoints/{endpoint_id}': {
    get: {
      summary: 'Full catalog entry: params, cost, siblings, call template, example', tags: ['catalog'],
      parameters: [p('endpoint_id', 'dotted id, e.g. svc.people.enrich')],
      responses: { 200: json('Catalog entry'), 404: err('Unknown endpoint'), 422: invalid },
    },
  },
  '/openapi.json': { get: { summary: 'This document', tags: ['meta'], responses: { 200: json('OpenAPI 3.1.0') } } },
};
