// The HTTP request the router sends to one child, and a plain sender to the sandbox.
import type { OperationRuntime, ProviderRuntime, RequestSrc } from '../../language/types.ts';
import { buildChildRequest } from '../../runtime/router/build-request.ts';

export interface ProviderCall {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: Record<string, string>;
  body?: string;
}

/**
 * The request the router sends to one child, built by the router's own builder (keys placed, paths
 * filled, constants added); path parameters the mapping leaves open take their documented example.
 */
export function buildCall(
  provider: ProviderRuntime,
  op: OperationRuntime,
  request: RequestSrc | null,
  values: Record<string, unknown>,
  key: string,
): ProviderCall {
  const examples = Object.fromEntries(Object.entries(op.input.pathParams ?? {}).map(([n, p]) => [n, String(p.example ?? p.default ?? n)]));
  const filled: RequestSrc = { ...request, map: request?.map ?? [], const: { ...request?.const, path: { ...examples, ...request?.const?.path } } };
  const req = buildChildRequest(op, provider, filled, values, key, { [`SVC_BASE_${provider.service.toUpperCase()}`]: 'http://sandbox.invalid' });
  return { method: req.method, path: req.url.pathname, query: req.url.searchParams, headers: req.headers, ...(req.body === null ? {} : { body: req.body }) };
}

export async function send(base: string, service: string, call: ProviderCall, timeoutMs = 5000): Promise<{ status: number; text: string; json: unknown }> {
  const qs = call.query.toString();
  const res = await fetch(`${base}/${service}${call.path}${qs ? `?${qs}` : ''}`, {
    method: call.method,
    headers: call.headers,
    body: call.body,
    signal: AbortSignal.timeout(timeoutMs),
  });
  const text = await res.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, text, json };
}
