// Which catalog operation a pass-through call is, so it is checked, charged and recorded as that one.
// First the path: of the templates that match it with the call's method, the most specific (a
// literal segment beats a parameter). Then, where several operations share that path (one upstream
// endpoint described once per thing it does, told apart by a value such as `engine`, `Fields` or
// `enrichment_level`), the one whose fixed values the call sends; where differently priced ones fit
// it equally well, a 422 naming what tells them apart, never a charge at a guess; where nothing can
// tell them apart (one request described twice), every reading of it, its answer deciding the charge.
import type { OperationRuntime, ParamSrc, RuntimeCatalog } from '../../language/types.ts';
import { fail, invalid } from '../util/fail.ts';
import { getPath } from '../../language/json-path.ts';
import { perObject, Remembered } from '../../language/remember.ts';
import { compileTemplate, matchesTemplate, mostSpecific, type PathTemplate } from '../../language/paths.ts';

type Template = { op: OperationRuntime; template: PathTemplate };

/** An operation's path template, compiled once. */
export const templateOf = perObject((op: OperationRuntime) => compileTemplate(op.path));

/**
 * A provider's operations' path templates, in file order, read (and so those operations parsed) by
 * the first pass-through call to that provider. An operation's id starts with its provider's name
 * and a dot (the build refuses any other, and a name holds no dot), so the ids alone pick them.
 */
const templatesOf = perObject((runtime: RuntimeCatalog) => {
  const ids = Object.keys(runtime.operations);
  return new Remembered<Template[]>(Object.keys(runtime.providers).length, (provider) =>
    ids.filter((id) => id.startsWith(`${provider}.`)).map((id) => ({ op: runtime.operations[id], template: templateOf(runtime.operations[id]) })),
  );
});

/** A fixed value: one text, or a set of them (a list in the body). */
type Fixed = string | string[];

/** The values an operation stands for: a routed child's constants, a one-value enum, a required parameter's default. */
function declaredFixed(params: Record<string, ParamSrc> | undefined, into: Map<string, Fixed>): void {
  for (const [name, p] of Object.entries(params ?? {})) {
    const v = p.enum?.length === 1 ? p.enum[0] : p.required ? p.default : undefined;
    if (v !== undefined && v !== null && typeof v !== 'object') into.set(name, String(v));
  }
}

/**
 * Every value inside a constant body, by its path (`data[0].enrich_fields`): a list of plain values is
 * one value, a set whose order means nothing (`fields: [basic_profile, contact.phone_numbers]`).
 */
function leaves(value: unknown, path: string, into: Map<string, Fixed>): void {
  if (Array.isArray(value) && value.every((v) => v === null || typeof v !== 'object')) {
    if (path) into.set(path, value.filter((v) => v !== null).map(String));
  } else if (Array.isArray(value)) value.forEach((v, i) => leaves(v, `${path}[${i}]`, into));
  else if (value !== null && typeof value === 'object') for (const [k, v] of Object.entries(value)) leaves(v, path ? `${path}.${k}` : k, into);
  else if (value !== undefined && value !== null && path) into.set(path, String(value));
}

const fixedOf = perObject((op: OperationRuntime) => {
  const query = new Map<string, string>();
  const body = new Map<string, Fixed>();
  declaredFixed(op.input.queryParams, query);
  declaredFixed(op.input.body, body);
  for (const [name, v] of Object.entries(op.request?.const?.query ?? {})) query.set(name, String(v));
  leaves(op.request?.const?.body, '', body);
  return { query, body };
});

/** Whether a sent body value is a fixed one: a set when it holds the same members in any order (asking more is another call, priced otherwise). */
function sameValue(sent: unknown, value: Fixed): boolean {
  if (typeof value === 'string') return String(sent) === value;
  if (!Array.isArray(sent)) return false;
  const members = new Set(sent.map(String));
  return members.size === new Set(value).size && value.every((v) => members.has(v));
}

/**
 * How well a call fits an operation: each fixed value sent counts for it. In the query, one left out
 * counts against it and one contradicted rules it out (`engine=google_news` is not the web search); in
 * the body, one contradicted only counts against it, since a body also carries the caller's own
 * choices (a job name) beside the ones that tell operations apart, and one left out counts for
 * nothing, except a flag, which left out is off (Ocean reveals no email unless `includeEmails: true`
 * is sent). A strict operation is ruled out by a query parameter it does not take (`sets=company` is
 * not the bare technology lookup).
 */
function fit(op: OperationRuntime, query: URLSearchParams, body: unknown): number {
  const fixed = fixedOf(op);
  if (op.strict_query && [...query.keys()].some((k) => !Object.hasOwn(op.input.queryParams ?? {}, k))) return -Infinity;
  let score = 0;
  for (const [name, value] of fixed.query) {
    const sent = query.get(name);
    if (sent === null) score -= 1;
    else if (sent === value) score += 1;
    else return -Infinity;
  }
  for (const [path, value] of fixed.body) {
    const sent = getPath(body, path) ?? (value === 'true' || value === 'false' ? 'false' : null);
    if (sent !== null) score += sameValue(sent, value) ? 1 : -1;
  }
  return score;
}

/**
 * Whether the call is exactly the request the operation sends: every value `told` (the values the
 * operations of its path fix) that the operation fixes sent alike, and every other one left out (a
 * flag also when sent off, as left out it is), every query parameter it requires sent, and where it
 * is strict, no query parameter it does not take. Operations the call is so, each billed its own way, are readings of one request (readingsOf).
 */
function sendsAsIs(op: OperationRuntime, told: { query: Set<string>; body: Set<string> }, query: URLSearchParams, body: unknown): boolean {
  const fixed = fixedOf(op);
  if (op.strict_query && [...query.keys()].some((k) => !Object.hasOwn(op.input.queryParams ?? {}, k))) return false;
  if (Object.entries(op.input.queryParams ?? {}).some(([name, p]) => p.required && !query.has(name))) return false;
  for (const name of told.query) if ((query.get(name) ?? undefined) !== fixed.query.get(name)) return false;
  for (const path of told.body) {
    const value = fixed.body.get(path) ?? 'false';
    const sent = getPath(body, path) ?? (value === 'true' || value === 'false' ? 'false' : undefined);
    if (sent === undefined ? fixed.body.has(path) : !sameValue(sent, value)) return false;
  }
  return true;
}

/** What an operation's charge depends on; operations alike in all of it cost a call the same. */
export function billingRule(op: OperationRuntime): string {
  const c = op.cost;
  return JSON.stringify([c?.type ?? 'free', c?.type === 'free' ? 0 : op.price_micro, op.bills_miss, c?.rows_per_unit ?? 1, c?.min_units ?? 0]);
}

const show = (v: Fixed | undefined) => (v === undefined ? '(left out)' : Array.isArray(v) ? `[${v.join(', ')}]` : v);

/** The parameters whose fixed values differ between operations, by where they are sent. */
function telling(ops: OperationRuntime[]): Array<{ where: 'query' | 'body'; name: string }> {
  return (['query', 'body'] as const).flatMap((where) =>
    [...new Set(ops.flatMap((op) => [...fixedOf(op)[where].keys()]))]
      .filter((name) => new Set(ops.map((op) => show(fixedOf(op)[where].get(name)))).size > 1)
      .map((name) => ({ where, name })),
  );
}

/**
 * Several operations fit the call equally well and would charge it differently. Where a parameter
 * tells them apart, svc cannot know which one the provider will bill, so it calls no one and names,
 * per such parameter, what each operation stands for and costs: neither the caller nor svc pays the
 * difference. Where none does (the same request, described twice), the call is every reading of it
 * (readingsOf).
 */
function settleTie(tied: OperationRuntime[], path: string, provider: string): OperationRuntime[] {
  const apart = telling(tied);
  if (!apart.length) return readingsOf(tied);
  const each = (where: 'query' | 'body', name: string) =>
    tied.map((op) => `${op.endpoint_id} (${op.price_micro} micro-USD): ${show(fixedOf(op)[where].get(name))}`).join('; ');
  return invalid(
    apart.map(({ where, name }) => ({
      loc: [where, name],
      msg: `${path} of '${provider}' is ${tied.length} operations priced differently; '${name}' tells them apart: ${each(where, name)}. Send the value of the one you mean; nothing was called or charged.`,
      type: 'value_error.ambiguous',
    })),
  );
}

/**
 * The readings of one request that several operations describe, the dearest first: a pass-through
 * sends that request once, holds for the dearest and is charged as the dearest reading its answer
 * fulfils (pass-through.ts), as the provider bills by what it answered (Apollo's match costs an
 * email credit more when it holds an email, and its export credit when it holds only a profile).
 */
const readingsOf = (tied: OperationRuntime[]): OperationRuntime[] =>
  tied.sort((a, b) => b.price_micro - a.price_micro || Number(b.bills_miss) - Number(a.bills_miss));

/**
 * The path as the catalog writes it. A caller who copied a call from the provider's own docs sends
 * the base URL's path too (hunter's /v2/email-finder for the catalog's /email-finder); that prefix
 * is dropped when the whole path is no operation of the provider and the rest is one.
 */
export function catalogPath(runtime: RuntimeCatalog, provider: string, path: string): string {
  const base = runtime.providers[provider]?.base_url;
  const prefix = base ? new URL(base).pathname.replace(/\/+$/, '') : '';
  if (!prefix || !path.startsWith(`${prefix}/`)) return path;
  const templates = templatesOf(runtime).get(provider);
  const rest = path.slice(prefix.length);
  const fits = (p: string) => templates.some((t) => matchesTemplate(t.template, p));
  return !fits(path) && fits(rest) ? rest : path;
}

/**
 * The operation a pass-through call is, as its readings: one, or, for one request several operations
 * describe, each of them, the dearest first (the one whose declarations check the call and hold for it).
 */
export function matchReadings(
  runtime: RuntimeCatalog,
  provider: string,
  method: string,
  path: string,
  query: URLSearchParams,
  body: unknown,
): OperationRuntime[] {
  const templates = templatesOf(runtime).get(provider);
  const candidates = templates.filter((t) => matchesTemplate(t.template, path));
  if (!candidates.length) {
    const some = templates
      .slice(0, 6)
      .map((t) => `${t.op.method} ${t.op.path}`)
      .join(', ');
    fail(404, `No operation of '${provider}' at ${path}; it has ${templates.length}: ${some}${templates.length > 6 ? ', …' : '.'}`);
  }
  const withMethod = candidates.filter((t) => t.op.method === method);
  const best = mostSpecific(withMethod);
  if (!best) {
    const takes = [...new Set(candidates.map((t) => t.op.method))].sort();
    fail(405, `${path} of '${provider}' takes ${takes.join(' or ')}, not ${method.slice(0, 16)}.`, { allow: takes.join(', ') });
  }
  const same = withMethod.filter((t) => t.template.shape === best.template.shape);
  if (same.length === 1) return [best.op];
  const told = {
    query: new Set(same.flatMap(({ op }) => [...fixedOf(op).query.keys()])),
    body: new Set(same.flatMap(({ op }) => [...fixedOf(op).body.keys()])),
  };
  const asIs = same.filter(({ op }) => sendsAsIs(op, told, query, body)).map(({ op }) => op);
  if (new Set(asIs.map(billingRule)).size > 1) return readingsOf(asIs);
  const scored = same.map(({ op }) => ({ op, score: fit(op, query, body) }));
  const top = Math.max(...scored.map((s) => s.score));
  const tied = scored.filter((s) => s.score === top && top > -Infinity).map((s) => s.op);
  if (tied.length && new Set(tied.map(billingRule)).size === 1) return [tied[0]];
  if (tied.length) return settleTie(tied, path, provider);
  // every operation at this path stands for other values than the call sends: name them
  const names = [...new Set(same.flatMap(({ op }) => [...fixedOf(op).query.keys()]))];
  return invalid(
    names.map((name) => {
      const fixed = same.map(({ op }) => fixedOf(op).query.get(name));
      // quoted: a value may itself hold commas ('company,phone,social'); an operation fixing none takes the name left out
      const ways = [...new Set(fixed.filter((v) => v !== undefined))].map((v) => `'${v}'`);
      if (fixed.includes(undefined)) ways.push('left out');
      return {
        loc: ['query', name],
        msg: `'${name}' must be ${ways.join(' or ')} at ${path} of '${provider}' (one operation per call).`,
        type: 'value_error.enum',
      };
    }),
  );
}
