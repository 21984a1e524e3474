// Which catalog operation a pass-through call is, so it is checked, charged and recorded as that one.
// First the path: of the templates that match it with the call's method, the most specific (a
// literal segment beats a parameter). Then, where several operations share that path (one upstream
// endpoint described once per thing it does, told apart by a value such as `engine`, `Fields` or
// `enrichment_level`), the one whose fixed values the call sends.
import type { OperationRuntime, ParamSrc, RuntimeCatalog } from '../../language/types.ts';
import { fail, invalid } from '../errors.ts';
import { getPath } from '../../language/json-path.ts';
import { perObject } from '../../language/remember.ts';
import { compileTemplate, matchesTemplate, mostSpecific, type PathTemplate } from '../../language/paths.ts';

type Template = { op: OperationRuntime; template: PathTemplate };

/** An operation's path template, compiled once. */
export const templateOf = perObject((op: OperationRuntime) => compileTemplate(op.path));

/** The path templates of every provider's operations, in file order. */
const templatesByProvider = perObject((runtime: RuntimeCatalog) => {
  const byProvider = new Map<string, Template[]>();
  for (const op of Object.values(runtime.operations)) {
    const list = byProvider.get(op.provider);
    const t = { op, template: templateOf(op) };
    if (list) list.push(t);
    else byProvider.set(op.provider, [t]);
  }
  return byProvider;
});

/** The values an operation stands for: a routed child's constants, a one-value enum, a required parameter's default. */
function declaredFixed(params: Record<string, ParamSrc> | undefined, into: Map<string, string>): void {
  for (const [name, p] of Object.entries(params ?? {})) {
    const v = p.enum?.length === 1 ? p.enum[0] : p.required ? p.default : undefined;
    if (v !== undefined && v !== null && typeof v !== 'object') into.set(name, String(v));
  }
}

/** Every primitive inside a constant body, by its path (`data[0].enrich_fields[0]`). */
function leaves(value: unknown, path: string, into: Map<string, string>): void {
  if (Array.isArray(value)) value.forEach((v, i) => leaves(v, `${path}[${i}]`, into));
  else if (value !== null && typeof value === 'object') for (const [k, v] of Object.entries(value)) leaves(v, path ? `${path}.${k}` : k, into);
  else if (value !== undefined && value !== null && path) into.set(path, String(value));
}

const fixedOf = perObject((op: OperationRuntime) => {
  const query = new Map<string, string>();
  const body = new Map<string, string>();
  declaredFixed(op.input.queryParams, query);
  declaredFixed(op.input.body, body);
  for (const [name, v] of Object.entries(op.request?.const?.query ?? {})) query.set(name, String(v));
  leaves(op.request?.const?.body, '', body);
  return { query, body };
});

/**
 * How well a call fits an operation: each fixed value sent counts for it. In the query, one left out
 * counts against it and one contradicted rules it out (`engine=google_news` is not the web search);
 * in the body, one contradicted only counts against it, since a body also carries the caller's own
 * choices (a job name) beside the ones that tell operations apart.
 */
function fit(op: OperationRuntime, query: URLSearchParams, body: unknown): number {
  const fixed = fixedOf(op);
  let score = 0;
  for (const [name, value] of fixed.query) {
    const sent = query.get(name);
    if (sent === null) score -= 1;
    else if (sent === value) score += 1;
    else return -Infinity;
  }
  for (const [path, value] of fixed.body) {
    const sent = getPath(body, path);
    if (sent !== undefined && sent !== null) score += String(sent) === value ? 1 : -1;
  }
  return score;
}

export function matchOperation(runtime: RuntimeCatalog, provider: string, method: string, path: string, query: URLSearchParams, body: unknown): OperationRuntime {
  const templates = templatesByProvider(runtime).get(provider) ?? [];
  const candidates = templates.filter((t) => matchesTemplate(t.template, path));
  if (!candidates.length) {
    const some = templates.slice(0, 6).map((t) => `${t.op.method} ${t.op.path}`).join(', ');
    fail(404, `No operation of '${provider}' at ${path}; it has ${templates.length}: ${some}${templates.length > 6 ? ', …' : ''}.`);
  }
  const withMethod = candidates.filter((t) => t.op.method === method);
  const best = mostSpecific(withMethod);
  if (!best) fail(405, `${path} of '${provider}' takes ${[...new Set(candidates.map((t) => t.op.method))].join(' or ')}, not ${method}.`);
  const same = withMethod.filter((t) => t.template.shape === best.template.shape);
  if (same.length === 1) return best.op;
  let chosen: OperationRuntime | null = null;
  let top = -Infinity;
  for (const { op } of same) {
    const s = fit(op, query, body);
    if (s > top) { top = s; chosen = op; }
  }
  if (chosen) return chosen;
  // every operation at this path stands for other values than the call sends: name them
  const names = [...new Set(same.flatMap(({ op }) => [...fixedOf(op).query.keys()]))];
  return invalid(names.map((name) => ({
    loc: ['query', name],
    msg: `'${name}' must be one of ${[...new Set(same.map(({ op }) => fixedOf(op).query.get(name)).filter((v) => v !== undefined))].join(', ')} at ${path} of '${provider}' (one operation per call).`,
    type: 'value_error.enum',
  })));
}
