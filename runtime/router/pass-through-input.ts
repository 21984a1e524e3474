// What a pass-through call sends, checked against what its operation declares before any provider is
// called or paid: the body's shape, required parameters, types, enums and bounds, and (where the
// entry is strict) nothing undeclared. Every problem found is named in one 422.
import type { OperationRuntime, ParamSrc } from '../../language/types.ts';
import { invalid, type ValidationIssue } from '../util/fail.ts';
import { getPath } from '../../language/json-path.ts';

type Where = 'query' | 'body' | 'path';

/** Whether the operation's body is a JSON array (declared as `[0].field`) rather than an object. */
const arrayBody = (op: OperationRuntime) => Object.keys(op.input.body ?? {}).some((k) => k.startsWith('['));

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A query value is text: it holds a number or a flag when it reads as one. */
function queryValue(type: string, text: string): unknown {
  if ((type === 'integer' || type === 'number') && /^-?\d+(\.\d+)?$/.test(text)) return Number(text);
  if (type === 'boolean' && /^(true|false|1|0)$/.test(text)) return text === 'true' || text === '1';
  if (type === 'array') return text.split(',');
  return text;
}

const TYPE_CHECKS: Record<string, (v: unknown) => boolean> = {
  string: (v) => typeof v === 'string',
  integer: (v) => Number.isSafeInteger(v),
  number: (v) => typeof v === 'number' && Number.isFinite(v),
  boolean: (v) => typeof v === 'boolean',
  array: Array.isArray,
  object: isObject,
};

/** The problems of one declared parameter's value, in the declaration's own words. */
function problems(where: Where, name: string, p: ParamSrc, value: unknown, op: OperationRuntime): ValidationIssue[] {
  const loc = [where, name];
  const check = TYPE_CHECKS[p.type];
  if (check && !check(value))
    return [{ loc, msg: `'${name}' of ${op.endpoint_id} must be ${p.type === 'integer' ? 'an' : 'a'} ${p.type}.`, type: `type_error.${p.type}` }];
  if (p.enum?.length) {
    const allowed = p.enum.map(String);
    const values = Array.isArray(value) ? value : [value];
    const off = values.find((v) => !allowed.includes(String(v)));
    if (off !== undefined) return [{ loc, msg: `'${name}' of ${op.endpoint_id} must be one of ${allowed.join(', ')}.`, type: 'value_error.enum' }];
  }
  if (typeof value === 'number' && ((p.min !== undefined && value < p.min) || (p.max !== undefined && value > p.max))) {
    const range = p.min !== undefined && p.max !== undefined ? `from ${p.min} to ${p.max}` : p.min !== undefined ? `at least ${p.min}` : `at most ${p.max}`;
    return [{ loc, msg: `'${name}' of ${op.endpoint_id} must be ${range}.`, type: 'value_error.number' }];
  }
  return [];
}

function checkDeclared(
  where: Where,
  declared: Record<string, ParamSrc> | undefined,
  valueOf: (name: string, p: ParamSrc) => unknown,
  op: OperationRuntime,
): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  for (const [name, p] of Object.entries(declared ?? {})) {
    const value = valueOf(name, p);
    if (value === undefined || value === null) {
      if (p.required) issues.push({ loc: [where, name], msg: `'${name}' is required by ${op.endpoint_id}.`, type: 'value_error.missing' });
    } else issues.push(...problems(where, name, p, value, op));
  }
  return issues;
}

/** Sent names the operation does not declare (a declared `a.b` allows `a`). */
function undeclared(where: Where, sent: Iterable<string>, declared: Record<string, ParamSrc> | undefined, op: OperationRuntime): ValidationIssue[] {
  const names = Object.keys(declared ?? {});
  return [...sent]
    .filter((k) => !names.some((n) => n === k || n.startsWith(`${k}.`) || n.startsWith(`${k}[`)))
    .map((k) => ({ loc: [where, k], msg: `'${k}' is not a parameter of ${op.endpoint_id}.`, type: 'value_error.extra' }));
}

/** 422 unless each path parameter is what the operation declares (an integer id, say). */
export function checkPath(op: OperationRuntime, values: Record<string, string>): void {
  const issues = checkDeclared('path', op.input.pathParams, (name, p) => (values[name] === undefined ? undefined : queryValue(p.type, values[name])), op);
  if (issues.length) invalid(issues);
}

/**
 * A declared parameter sent twice (`limit=10&limit=100`): svc checks and holds for one value while a
 * provider may read the other (many take the last), so the call would be checked, held and billed
 * for a page it did not ask for.
 */
function repeated(query: URLSearchParams, declared: Record<string, ParamSrc> | undefined, op: OperationRuntime): ValidationIssue[] {
  return Object.keys(declared ?? {})
    .filter((name) => query.getAll(name).length > 1)
    .map((name) => ({
      loc: ['query', name],
      msg: `'${name}' of ${op.endpoint_id} is sent ${query.getAll(name).length} times; send it once${declared![name].type === 'array' ? ', its items separated by commas' : ''}.`,
      type: 'value_error.repeated',
    }));
}

/** 422 unless the query is what the operation declares. */
export function checkQuery(op: OperationRuntime, query: URLSearchParams): void {
  const declared = op.input.queryParams;
  const issues = op.strict_query ? undeclared('query', new Set(query.keys()), declared, op) : [];
  issues.push(...repeated(query, declared, op));
  issues.push(
    ...checkDeclared(
      'query',
      declared,
      (name, p) => {
        const text = query.get(name);
        return text === null ? undefined : queryValue(p.type, text);
      },
      op,
    ),
  );
  if (issues.length) invalid(issues);
}

/**
 * 422 unless the body is what the operation declares: a JSON object (an array where the operation
 * declares `[0].field`), or nothing at all. `null`, a string or a list in place of the object would
 * otherwise skip every check below and still be sent, and paid for.
 */
export function checkBody(op: OperationRuntime, body: unknown): void {
  const wantsArray = arrayBody(op);
  if (body !== undefined && (wantsArray ? !Array.isArray(body) : !isObject(body))) {
    invalid([
      {
        loc: ['body'],
        msg: `The body of ${op.endpoint_id} must be a JSON ${wantsArray ? 'array' : 'object'}.`,
        type: `type_error.${wantsArray ? 'list' : 'dict'}`,
      },
    ]);
  }
  const declared = op.input.body;
  const issues = (op.strict_body || op.body_allowlist) && isObject(body) ? undeclared('body', Object.keys(body), declared, op) : [];
  issues.push(...checkDeclared('body', declared, (name) => getPath(body, name), op));
  if (issues.length) invalid(issues);
}
