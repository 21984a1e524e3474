// What an operation's call template sends (call-template.ts): its `test_request` where the YAML gives
// one, else what its declaration says a call needs (required parameters, the values that tell it from
// the operations sharing its path, its page size), each filled from the declaration: its example,
// default or first enum value, else a value of its type. So a template passes the checks svc makes of
// every pass-through call (runtime/router/pass-through-input.ts) before it is pasted anywhere.
import { getPath, segments, setPath } from './json-path.ts';
import type { OperationSrc, PageSizeSrc, ParamSrc } from './types.ts';

export interface SampleRequest {
  path: Record<string, unknown>;
  query: Record<string, unknown>;
  /** undefined where the method carries no body */
  body: unknown;
}

/** the placeholder a caller replaces: free text has no value the declaration could suggest */
const TEXT = 'value';

/** The least count within the bounds, at least 1: a page size below 1 is refused, and a small one is a cheap first call. */
function count(p: ParamSrc): number {
  const least = Math.max(p.min ?? 1, 1);
  return p.max !== undefined ? Math.min(least, p.max) : least;
}

/**
 * A value of the declared type: a list holds one item (of the enum where it has one), an object is
 * filled by its declared properties, a flag is off (it asks the provider for nothing more).
 */
function typed(p: ParamSrc): unknown {
  if (p.type === 'array') return [p.enum?.[0] ?? TEXT];
  if (p.enum?.length) return p.enum[0];
  if (p.type === 'integer' || p.type === 'number') return count(p);
  if (p.type === 'boolean') return false;
  if (p.type === 'object') return {};
  return TEXT;
}

const sampleValue = (p: ParamSrc): unknown => p.example ?? p.default ?? typed(p);

/** what a call must send, or sends to say which operation it is: a one-value enum (runtime/router/pass-through-match.ts) */
const needed = (p: ParamSrc) => p.required || p.example !== undefined || p.enum?.length === 1;

/** The declared parameters a call sends, parents before what they hold (`data` before `data[0].email`). */
function sent(params: Record<string, ParamSrc> | undefined, pageSize: string | undefined): Array<[string, ParamSrc]> {
  return Object.entries(params ?? {})
    .filter(([name, p]) => needed(p) || name === pageSize)
    .sort(([a], [b]) => segments(a).length - segments(b).length);
}

/** Fill what a body does not hold yet (the routed request's constants come first: a routed call always sends them); its names are paths. */
function fillBody(body: Record<string, unknown> | unknown[], params: Array<[string, ParamSrc]>): void {
  for (const [name, p] of params) if (getPath(body, name) === undefined) setPath(body, name, sampleValue(p));
}

/** The same for a query or a path, whose names are plain (`domains[]` is one name). */
function fillNames(into: Record<string, unknown>, params: Array<[string, ParamSrc]>): void {
  for (const [name, p] of params) into[name] ??= sampleValue(p);
}

/** `query.size` -> `size`, `body.emails` -> `emails`, for the group the parameter is declared in. */
const pageSizeIn = (group: 'query' | 'body', bound: PageSizeSrc | undefined) =>
  bound?.param?.startsWith(`${group}.`) ? bound.param.slice(group.length + 1) : undefined;

/** `pageSize`: the operation's resolved bound on the rows one call is billed for (build/page-size.ts), where it has one. */
export function sampleRequest(op: OperationSrc, pageSize?: PageSizeSrc): SampleRequest {
  const { input, test_request: given, request } = op;
  const path: Record<string, unknown> = { ...request?.const?.path };
  // a path cannot be built without each of its parameters, required or not
  fillNames(path, Object.entries(input.pathParams ?? {}));
  const query: Record<string, unknown> = given?.queryParams ?? { ...request?.const?.query };
  if (!given?.queryParams) fillNames(query, sent(input.queryParams, pageSizeIn('query', pageSize)));
  if (op.method === 'GET' || op.method === 'DELETE') return { path, query, body: undefined };
  if (given?.body !== undefined) return { path, query, body: given.body };
  // a body declared by `[0].field` is a JSON array
  const isList = Object.keys(input.body ?? {}).some((k) => k.startsWith('['));
  const body = structuredClone(request?.const?.body ?? (isList ? [] : {})) as Record<string, unknown> | unknown[];
  fillBody(body, sent(input.body, pageSizeIn('body', pageSize)));
  return { path, query, body };
}
