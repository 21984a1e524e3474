// Which catalog operation a pass-through call is, so it is checked, charged and recorded as that one.
// First the path: of the templates that match it with the call's method, the most specific (a
// literal segment beats a parameter). Then, where several operations share that path (one upstream
// endpoint described once per thing it does, told apart by a query value such as `engine` or
// `Fields`), the one whose fixed query values the call sends.
import type { OperationRuntime, RuntimeCatalog } from '../../build/types.ts';
import { fail, invalid } from '../errors.ts';
import { perObject } from '../util/remember.ts';
import { compileTemplate, matchesTemplate, mostSpecific, type PathTemplate } from './path-templates.ts';

type Template = { op: OperationRuntime; template: PathTemplate };

/** The path templates of every provider's operations, compiled once per catalog, in file order. */
const templatesByProvider = perObject((runtime: RuntimeCatalog) => {
  const byProvider = new Map<string, Template[]>();
  for (const op of Object.values(runtime.operations)) {
    const list = byProvider.get(op.provider);
    const t = { op, template: compileTemplate(op.path) };
    if (list) list.push(t);
    else byProvider.set(op.provider, [t]);
  }
  return byProvider;
});

/** Query values an operation stands for: a routed child's constants, a one-value enum, a required parameter's default. */
const fixedQuery = perObject((op: OperationRuntime) => {
  const fixed = new Map<string, string>();
  for (const [name, p] of Object.entries(op.input.queryParams ?? {})) {
    const v = p.enum?.length === 1 ? p.enum[0] : p.required ? p.default : undefined;
    if (v !== undefined && v !== null) fixed.set(name, String(v));
  }
  for (const [name, v] of Object.entries(op.request?.const?.query ?? {})) fixed.set(name, String(v));
  return fixed;
});

/** How well the call's query fits an operation: each fixed value sent counts, one left out counts against, one contradicted rules it out. */
function fit(op: OperationRuntime, query: URLSearchParams): number {
  let score = 0;
  for (const [name, value] of fixedQuery(op)) {
    const sent = query.get(name);
    if (sent === null) score -= 1;
    else if (sent === value) score += 1;
    else return -Infinity;
  }
  return score;
}

export function matchOperation(runtime: RuntimeCatalog, provider: string, method: string, path: string, query: URLSearchParams): OperationRuntime {
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
    const s = fit(op, query);
    if (s > top) { top = s; chosen = op; }
  }
  if (chosen) return chosen;
  // every operation at this path stands for other values than the call sends: name them
  const names = [...new Set(same.flatMap(({ op }) => [...fixedQuery(op).keys()]))];
  return invalid(names.map((name) => ({
    loc: ['query', name],
    msg: `'${name}' must be one of ${[...new Set(same.map(({ op }) => fixedQuery(op).get(name)).filter((v) => v !== undefined))].join(', ')} at ${path} of '${provider}' (one operation per call).`,
    type: 'value_error.enum',
  })));
}
