// /openapi.json: own endpoints plus one operation per routed capability, with its request schema
// and route headers, built once at start from the loaded catalog.
import type { RuntimeCatalog } from '../language/types.ts';
import { routeHeaders } from '../language/route-options.ts';
import { ownPaths } from './openapi-own.ts';
import { capabilityBodySchema } from '../language/body-schema.ts';

export function openapiDocument(runtime: RuntimeCatalog, proxyPrefix: string): object {
  const paths: Record<string, unknown> = { ...ownPaths };
  for (const [name, cap] of Object.entries(runtime.capabilities).sort(([a], [b]) => a.localeCompare(b))) {
    const schema = capabilityBodySchema(cap);
    // Published with the filters' defaults as annotations (the validating copy has none).
    for (const [f, d] of Object.entries(cap.filters ?? {})) if (d.default !== undefined && d.default !== null) schema.properties[f].default = d.default;
    paths[`${proxyPrefix}/${name}`] = {
      post: {
        operationId: `svc.${name}`,
        summary: cap.description,
        tags: ['routed'],
        security: [{ token: [] }],
        parameters: Object.entries(routeHeaders(cap)).map(([h, d]) => ({ name: h, in: 'header', required: false, schema: { type: 'string' }, description: d })),
        requestBody: {
          required: true,
          content: { 'application/json': { schema: { ...schema, description: `Identity sets: ${cap.identity.map((s) => `{${s.join(', ')}}`).join(' or ')}` } } },
        },
        responses: {
          200: { description: 'Hit or miss, in the routed wrapper', content: { 'application/json': { schema: { $ref: '#/components/schemas/RoutedResponse' } } } },
          401: { description: 'No or bad credential' }, 402: { description: 'Balance too low' },
          422: { description: 'Validation error', content: { 'application/json': { schema: { $ref: '#/components/schemas/HTTPValidationError' } } } },
          502: { description: 'Every child failed with an error' },
        },
      },
    };
  }
  paths[`${proxyPrefix}/{capability}/batch`] = batchPath();
  paths[`${proxyPrefix}/{provider}/{path}`] = passThroughPath();
  return {
    openapi: '3.1.0',
    info: { title: 'svc', version: '0.0.1', description: 'Capability catalog and routed call service.' },
    paths,
    components: {
      securitySchemes: { token: { type: 'apiKey', in: 'header', name: 'x-svc-token' }, bearer: { type: 'http', scheme: 'bearer' }, session: { type: 'apiKey', in: 'cookie', name: 'svc_session' }, admin: { type: 'apiKey', in: 'header', name: 'x-svc-admin' } },
      schemas: {
        ValidationError: {
          type: 'object', required: ['loc', 'msg', 'type'],
          properties: { loc: { type: 'array', items: { anyOf: [{ type: 'string' }, { type: 'integer' }] } }, msg: { type: 'string' }, type: { type: 'string' } },
        },
        HTTPValidationError: { type: 'object', properties: { detail: { type: 'array', items: { $ref: '#/components/schemas/ValidationError' } } } },
        HTTPError: { type: 'object', required: ['detail'], properties: { detail: { type: 'string' } } },
        RoutedResponse: {
          type: 'object', required: ['output', 'raw', '_svc'],
          properties: {
            output: { type: 'object' }, raw: {},
            _svc: {
              type: 'object',
              properties: {
                call_id: { type: 'string', description: 'also the X-Svc-Call-Id header and call_id of each ledger row the call caused' },
                served_by: { type: ['string', 'null'] }, cost_micro: { type: 'integer' }, stopped: { type: 'string' },
                tried: { type: 'array', items: { type: 'object' } }, verification: { type: 'object' },
              },
            },
          },
        },
      },
    },
  };
}

/** Pass-through calls: one catalog operation by its provider and path (GET or POST, as the operation declares). */
function passThroughPath(): object {
  const op = (method: string) => ({
    operationId: `passThrough${method}`,
    summary: "Call one catalog operation as its provider defines it, svc's key injected; the provider's own status and body",
    tags: ['pass-through'],
    security: [{ token: [] }],
    parameters: [
      { name: 'provider', in: 'path', required: true, schema: { type: 'string' }, description: 'provider key, e.g. hunter' },
      { name: 'path', in: 'path', required: true, schema: { type: 'string' }, description: "the operation's path as in its catalog entry; may hold slashes" },
    ],
    responses: {
      default: { description: "The provider's answer, with X-Svc-Cost-Micro" },
      401: { description: 'No or bad credential' }, 402: { description: 'Balance too low' }, 404: { description: 'No such provider or operation' },
      405: { description: 'Not the method the operation declares' }, 422: { description: 'A parameter the operation does not declare (strict entries)' },
      502: { description: "The provider refused svc's key or failed" },
    },
  });
  return { get: op('Get'), post: op('Post') };
}

/** Batch calls: NDJSON subjects in, NDJSON rows and a summary out (docs/batch.md). */
function batchPath(): object {
  const header = (name: string, description: string) => ({ name, in: 'header', required: false, schema: { type: 'string' }, description });
  return {
    post: {
      operationId: 'batch',
      summary: 'Many subjects of one routed capability: one NDJSON line per subject (optional id), answered as NDJSON rows as they finish, then a summary line',
      tags: ['routed'],
      security: [{ token: [] }],
      parameters: [
        { name: 'capability', in: 'path', required: true, schema: { type: 'string' } },
        header('X-Svc-Batch-Max-Cost', 'USD the whole batch may cost; rows not started when it is reached answer skipped: budget'),
        header('X-Svc-Batch-Concurrency', 'rows in flight at once, 1 to 32 (default 8)'),
      ],
      requestBody: { required: true, content: { 'application/x-ndjson': { schema: { type: 'string' } } } },
      responses: {
        200: { description: 'NDJSON: {id, status, output, _svc} per row, then {event: summary, rows, hits, misses, errors, skipped, cost_micro}', content: { 'application/x-ndjson': { schema: { type: 'string' } } } },
        400: { description: 'A line is not a JSON object' }, 401: { description: 'No or bad credential' }, 404: { description: 'No such capability' },
        413: { description: 'More than 10,000 rows or 16 MiB' }, 422: { description: 'A bad route or batch header' },
      },
    },
  };
}
