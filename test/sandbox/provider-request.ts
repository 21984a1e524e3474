// Builds the HTTP request a router would send to one child: its request mapping applied to a subject,
// its constants, its path parameters and the provider's key where its auth block says.
import type { AuthPlacementSrc, OperationRuntime, ProviderRuntime, RequestSrc } from '../../build/types.ts';
import { transforms } from '../../runtime/router/transforms.ts';
import { parsePath, setPath } from '../../runtime/util/json-path.ts';

export interface ProviderCall {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: Record<string, string>;
  body?: string;
}

function merge(into: Record<string, unknown>, from: Record<string, unknown>): void {
  for (const [k, v] of Object.entries(from)) {
    if (v && typeof v === 'object' && !Array.isArray(v) && into[k] && typeof into[k] === 'object') merge(into[k] as Record<string, unknown>, v as Record<string, unknown>);
    else into[k] = structuredClone(v);
  }
}

function place(call: ProviderCall, key: string, p: AuthPlacementSrc): void {
  const value = p.part === undefined ? key : (key.split(':')[p.part] ?? '');
  if (p.in === 'header') call.headers[(p.name ?? 'authorization').toLowerCase()] = `${p.prefix ?? ''}${value}`;
  else if (p.in === 'query') call.query.set(p.name ?? 'api_key', value);
  else if (p.in === 'bearer') call.headers.authorization = `Bearer ${value}`;
  else call.headers.authorization = `Basic ${Buffer.from(value).toString('base64')}`;
}

export function withKey(call: ProviderCall, provider: ProviderRuntime, key: string): ProviderCall {
  const out: ProviderCall = { ...call, query: new URLSearchParams(call.query), headers: { ...call.headers } };
  for (const p of [provider.auth, ...(provider.auth.also ?? [])]) place(out, key, p);
  return out;
}

export function buildCall(op: OperationRuntime, request: RequestSrc | null, values: Record<string, unknown>, params: Record<string, string> = {}): ProviderCall {
  const call: ProviderCall = { method: op.method, path: op.path, query: new URLSearchParams(), headers: {} };
  const pathParams: Record<string, string> = { ...params };
  let body: Record<string, unknown> | unknown[] | undefined;
  const constBody = request?.const?.body;
  if (constBody && typeof constBody === 'object' && !Array.isArray(constBody)) merge((body = {}), constBody as Record<string, unknown>);
  for (const m of request?.map ?? []) {
    let v = values[m.from] ?? m.default;
    if (v === undefined || v === null) continue;
    if (m.transform) v = transforms[m.transform](v);
    if (typeof v === 'number' && m.max !== undefined) v = Math.min(v, m.max);
    const [where, ...rest] = parsePath(m.to);
    if (where === 'query') call.query.append(String(rest[0]), String(v));
    else if (where === 'path') pathParams[String(rest[0])] = String(v);
    else if (where === 'header') call.headers[String(rest[0]).toLowerCase()] = String(v);
    else {
      body ??= typeof rest[0] === 'number' ? [] : {};
      setPath(body, rest, v);
    }
  }
  for (const [k, v] of Object.entries(request?.const?.query ?? {})) call.query.set(k, String(v));
  for (const [k, v] of Object.entries(request?.const?.header ?? {})) call.headers[k.toLowerCase()] = v;
  for (const [name, p] of Object.entries(op.input.pathParams ?? {})) pathParams[name] ??= String(p.example ?? p.default ?? name);
  call.path = op.path.replace(/\{([^}]+)\}/g, (_, n: string) => encodeURIComponent(pathParams[n] ?? n));
  if (body !== undefined) {
    const form = op.input.bodyType === 'form' && !Array.isArray(body);
    call.body = form ? new URLSearchParams(Object.entries(body).map(([k, v]) => [k, String(v)])).toString() : JSON.stringify(body);
    call.headers['content-type'] = form ? 'application/x-www-form-urlencoded' : 'application/json';
  }
  return call;
}

export async function send(base: string, service: string, call: ProviderCall, timeoutMs = 5000): Promise<{ status: number; text: string; json: unknown }> {
  const qs = call.query.toString();
  const res = await fetch(`${base}/${service}${call.path}${qs ? `?${qs}` : ''}`, {
    method: call.method, headers: call.headers, body: call.body, signal: AbortSignal.timeout(timeoutMs),
  });
  const text = await res.text();
  let json: unknown;
  try { json = JSON.parse(text); } catch { json = undefined; }
  return { status: res.status, text, json };
}
