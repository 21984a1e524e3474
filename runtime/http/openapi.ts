// /openapi.json, generated from the declared routes (declared-route.ts): their paths, parameters,
// request schemas (the ones the routes validate with), answers and security; the routed call once
// per capability of the loaded catalog, with its request schema and route headers. Built once at start.
import type { RuntimeCatalog } from '../../language/types.ts';
import { routeHeaders } from '../../language/route-options.ts';
import { capabilityBodySchema, identityRequirement } from '../../language/body-schema.ts';
import { documentedPath, pathParams, type Answer, type Auth, type Method, type Route } from './declared-route.ts';

type Operation = Record<string, unknown>;

const SECURITY: Record<Auth, Array<Record<string, []>> | undefined> = {
  none: undefined,
  team: [{ token: [] }, { session: [] }],
  admin: [{ admin: [] }],
  agent: [{ token: [] }, { bearer: [] }],
};
const ORG = { name: 'x-svc-org', in: 'header', required: false, schema: { type: 'string' }, description: "team slug; must name the credential's team" };
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

/** An answer as OpenAPI writes it: a sentence takes the shape its status implies (errors are svc's error shapes). */
function response(status: string, answer: Answer): object {
  if (typeof answer !== 'string')
    return { description: answer.description, content: { [answer.type ?? 'application/json']: { schema: answer.schema ?? { type: 'object' } } } };
  const code = Number(status);
  if (status === 'default' || code === 204) return { description: answer };
  const schema = code === 422 ? ref('HTTPValidationError') : code >= 400 ? ref('HTTPError') : { type: 'object' };
  return { description: answer, content: { 'application/json': { schema } } };
}

/**
 * The answers the checks every route goes through give (register-routes.ts: the credential, then
 * the query and the JSON body), for a route that does not word them itself: a client generated from this
 * document then knows a 403 or a 413 can come.
 */
function implied(op: Operation): Operation {
  const params = (op.parameters ?? []) as Array<{ in: string; name: string }>;
  const json = (op.requestBody as { content?: Record<string, unknown> } | undefined)?.content?.['application/json'];
  const checks: Record<string, string> = {
    ...(op.security ? { 401: 'No or bad credential' } : {}),
    ...(params.some((p) => p.name === ORG.name) ? { 403: "x-svc-org names another team than the credential's" } : {}),
    ...(json ? { 400: 'The body is not valid JSON', 413: 'Body too large' } : {}),
    // a path parameter may be any text (a route that checks one says so itself)
    ...(json || params.some((p) => p.in === 'query') ? { 422: 'Validation error' } : {}),
  };
  // statuses are integer keys, so the object lists them in order whatever was added last
  const responses = { ...(op.responses as Record<string, object>) };
  for (const [status, answer] of Object.entries(checks)) responses[status] ??= response(status, answer);
  return { ...op, responses };
}

function parameters(r: Route): object[] {
  const { path, query, headers = {}, about = {} } = r.request ?? {};
  return [
    ...(r.auth === 'team' ? [ORG] : []),
    ...pathParams(r).map((name) => ({ name, in: 'path', required: true, schema: path?.properties[name] ?? { type: 'string' }, description: about[name] })),
    ...Object.entries(query?.properties ?? {}).map(([name, schema]) => ({
      name,
      in: 'query',
      required: query?.required?.includes(name) ?? false,
      schema,
      description: about[name],
    })),
    ...Object.entries(headers).map(([name, description]) => ({ name, in: 'header', required: false, schema: { type: 'string' }, description })),
  ];
}

function operation(r: Route, method: Exclude<Method, 'ANY'>): Operation {
  const { body, stream } = r.request ?? {};
  const many = r.method === 'ANY' && (r.documentedMethods?.length ?? 0) > 1;
  const params = parameters(r);
  return implied({
    ...(r.operationId ? { operationId: many ? `${r.operationId}${method[0]}${method.slice(1).toLowerCase()}` : r.operationId } : {}),
    summary: r.summary,
    tags: r.tags,
    ...(SECURITY[r.auth] ? { security: SECURITY[r.auth] } : {}),
    ...(params.length ? { parameters: params } : {}),
    ...(body ? { requestBody: { required: true, content: { 'application/json': { schema: body } } } } : {}),
    ...(stream ? { requestBody: { required: true, content: { [stream]: { schema: { type: 'string' } } } } } : {}),
    responses: Object.fromEntries(Object.entries(r.responses).map(([status, answer]) => [status, response(status, answer)])),
  });
}

/** The routed call once per capability: its description, route headers and request schema. */
function capabilityPaths(r: Route, runtime: RuntimeCatalog, proxyPrefix: string): Record<string, object> {
  const paths: Record<string, object> = {};
  const base = operation(r, 'POST');
  for (const [name, cap] of Object.entries(runtime.capabilities).sort(([a], [b]) => a.localeCompare(b))) {
    const schema = capabilityBodySchema(cap);
    // Published with the filters' defaults as annotations (the validating copy has none).
    for (const [f, d] of Object.entries(cap.filters ?? {})) if (d.default !== undefined && d.default !== null) schema.properties[f].default = d.default;
    const headers = Object.entries(routeHeaders(cap)).map(([h, d]) => ({ name: h, in: 'header', required: false, schema: { type: 'string' }, description: d }));
    paths[`${proxyPrefix}/${name}`] = {
      post: implied({
        ...base,
        operationId: `svc.${name}`,
        summary: cap.description,
        parameters: [...(r.auth === 'team' ? [ORG] : []), ...headers],
        requestBody: {
          required: true,
          content: {
            'application/json': {
              schema: {
                ...schema,
                ...identityRequirement(cap),
                description: `${cap.identity.length > 1 ? 'One of these identity sets is required' : 'Required'}: ${cap.identity.map((s) => `{${s.join(', ')}}`).join(' or ')}`,
              },
            },
          },
        },
      }),
    };
  }
  return paths;
}

export function openapiDocument(routes: readonly Route[], runtime: RuntimeCatalog, proxyPrefix: string): object {
  const paths: Record<string, Record<string, object>> = {};
  for (const r of routes) {
    if (r.openapi === 'omit') continue;
    if (r.openapi === 'each-capability') {
      Object.assign(paths, capabilityPaths(r, runtime, proxyPrefix));
      continue;
    }
    const item = (paths[documentedPath(r, proxyPrefix)] ??= {});
    for (const method of r.method === 'ANY' ? (r.documentedMethods ?? []) : [r.method]) item[method.toLowerCase()] = operation(r, method);
  }
  return {
    openapi: '3.1.0',
    info: { title: 'svc', version: '0.0.1', description: 'Capability catalog and routed call service.' },
    paths,
    components: {
      securitySchemes: {
        token: { type: 'apiKey', in: 'header', name: 'x-svc-token' },
        bearer: { type: 'http', scheme: 'bearer' },
        session: { type: 'apiKey', in: 'cookie', name: 'svc_session' },
        admin: { type: 'apiKey', in: 'header', name: 'x-svc-admin' },
      },
      schemas: {
        ValidationError: {
          type: 'object',
          required: ['loc', 'msg', 'type'],
          properties: {
            loc: { type: 'array', items: { anyOf: [{ type: 'string' }, { type: 'integer' }] } },
            msg: { type: 'string' },
            type: { type: 'string' },
          },
        },
        HTTPValidationError: { type: 'object', properties: { detail: { type: 'array', items: { $ref: '#/components/schemas/ValidationError' } } } },
        HTTPError: { type: 'object', required: ['detail'], properties: { detail: { type: 'string' } } },
        // what X-Svc-Route-Dry-Run: 1 answers instead: the plan, no child called (docs/routing.md)
        DryRunResponse: {
          type: 'object',
          required: ['plan', 'excluded', 'worst_cost_micro'],
          properties: {
            plan: {
              type: 'array',
              items: {
                type: 'object',
                required: ['endpoint_id', 'key', 'worst_cost_micro'],
                properties: { endpoint_id: { type: 'string' }, key: { enum: ['own', 'platform'] }, worst_cost_micro: { type: 'integer' } },
              },
            },
            excluded: { type: 'array', items: { type: 'object', properties: { endpoint_id: { type: 'string' }, reason: { type: 'string' } } } },
            verification: { type: 'object', properties: { capability: { type: 'string' }, worst_cost_micro: { type: 'integer' } } },
            worst_cost_micro: { type: 'integer', description: 'the sum over the plan, verification included' },
          },
        },
        RoutedResponse: {
          type: 'object',
          required: ['output', 'raw', '_svc'],
          properties: {
            output: { type: 'object' },
            raw: {},
            _svc: {
              type: 'object',
              properties: {
                call_id: { type: 'string', description: 'also the X-Svc-Call-Id header and call_id of each ledger row the call caused' },
                served_by: { type: ['string', 'null'] },
                cost_micro: { type: 'integer' },
                stopped: { type: 'string' },
                tried: { type: 'array', items: { type: 'object' } },
                verification: { type: 'object' },
              },
            },
          },
        },
      },
    },
  };
}
