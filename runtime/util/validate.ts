// Validation at the edge: ajv validators, compiled at build time (svc's own request schemas) or on
// their first use (not at start) and kept, turning bad input into 422 issues.
import type { Ajv2020, ErrorObject, ValidateFunction } from 'ajv/dist/2020.js';
import { invalid, type ValidationIssue } from './fail.ts';
import { ajvCode, newAjv } from './ajv.ts';
import { once } from './once.ts';
import { decimalFor } from './decimal.ts';

// validateSchema: false, as these are svc's own schemas: test/runtime/own-schemas.test.ts checks
// them against the meta-schema, which otherwise compiles here on the first request (100+ ms, 5 MB).
// verbose on both: a pattern's error can name the form it wants (`x-expected` beside the pattern).
// The own routes' validators are compiled ahead with these options (runtime/http/request-check-sources.ts).
export const QUERY_OPTIONS = { allErrors: true, coerceTypes: true, useDefaults: true, strict: false, verbose: true, validateSchema: false } as const;
export const BODY_OPTIONS = { allErrors: true, useDefaults: true, strict: false, verbose: true, validateSchema: false } as const;

/** the own keywords, as code so that a validator compiled ahead carries them */
export function withOwnKeywords(ajv: Ajv2020): Ajv2020 {
  const _ = ajvCode();
  // `x-max-bytes`: a value's JSON text is at most that many bytes (a free-form object's size bound)
  ajv.addKeyword({
    keyword: 'x-max-bytes',
    schemaType: 'number',
    code: (cxt) => cxt.fail(_`Buffer.byteLength(JSON.stringify(${cxt.data}) ?? '') > ${cxt.schema}`),
  });
  return ajv;
}
const queryAjv = once(() => withOwnKeywords(newAjv(QUERY_OPTIONS)));
const bodyAjv = once(() => withOwnKeywords(newAjv(BODY_OPTIONS)));

function issues(where: string, errors: ErrorObject[]): ValidationIssue[] {
  // An anyOf that names its form (`x-expected`) is one issue: its branches' own errors
  // ("must be >= 0", "must be string") would contradict each other.
  const unions = errors.filter((e) => e.keyword === 'anyOf' && e.parentSchema?.['x-expected']);
  const kept = errors.filter((e) => !unions.some((u) => e.schemaPath.startsWith(`${u.schemaPath}/`)));
  return kept.map((e) => {
    const path = e.instancePath
      .split('/')
      .slice(1)
      .map((s) => (/^\d+$/.test(s) ? Number(s) : s));
    if (e.keyword === 'required') path.push((e.params as { missingProperty: string }).missingProperty);
    if (e.keyword === 'additionalProperties') path.push((e.params as { additionalProperty: string }).additionalProperty);
    const field = path.length ? String(path[path.length - 1]) : where;
    const msg =
      e.keyword === 'additionalProperties'
        ? `Unknown field '${field}'.`
        : e.keyword === 'required'
          ? `Field '${field}' is required.`
          : (e.keyword === 'pattern' || e.keyword === 'anyOf') && e.parentSchema?.['x-expected']
            ? `'${field}' must be ${String(e.parentSchema['x-expected'])}.`
            : e.keyword === 'x-max-bytes'
              ? `'${field}' must be at most ${String(e.schema)} bytes as JSON.`
              : // the values themselves: "one of the allowed values" leaves a caller guessing which
                e.keyword === 'enum'
                ? `'${field}' must be one of ${allowed((e.params as { allowedValues: unknown[] }).allowedValues)}.`
                : `'${field}' ${e.message}.`;
    return { loc: [where, ...path], msg, type: `value_error.${e.keyword}` };
  });
}

/** `a, b or c`, strings bare (a caller types them as written), anything else as JSON */
function allowed(values: unknown[]): string {
  const shown = values.map((v) => (typeof v === 'string' ? v : JSON.stringify(v)));
  return shown.length > 1 ? `${shown.slice(0, -1).join(', ')} or ${shown.at(-1)}` : String(shown[0]);
}

/**
 * Declared parameters given more than once (`?limit=5&limit=6` reads as a list): said as such, since
 * the type check would call the list "not an integer". A parameter that takes a list says `type: 'array'`.
 */
function repeated(where: string, schema: { properties?: Record<string, { type?: unknown }> }, query: Record<string, unknown>): ValidationIssue[] {
  const found: ValidationIssue[] = [];
  for (const name in query) {
    const declared = schema.properties?.[name];
    if (declared && declared.type !== 'array' && Array.isArray(query[name])) {
      found.push({ loc: [where, name], msg: `'${name}' was given more than once; send it once.`, type: 'value_error.repeated' });
    }
  }
  return found;
}

/**
 * Declared numbers written other than in decimal digits (`0x10`, `1e2`, ` 5`): ajv's coercion would
 * read them as JavaScript does, so they are refused before it runs.
 */
function nonDecimal(where: string, schema: { properties?: Record<string, { type?: unknown }> }, query: Record<string, unknown>): ValidationIssue[] {
  const found: ValidationIssue[] = [];
  for (const name in query) {
    const type = schema.properties?.[name]?.type;
    const value = query[name];
    if (typeof value === 'string' && !decimalFor(type, value)) {
      const form = type === 'integer' ? 'a whole number in decimal digits, such as 25' : 'a number in decimal digits, such as 2.5';
      found.push({ loc: [where, name], msg: `'${name}' must be ${form}.`, type: `type_error.${String(type)}` });
    }
  }
  return found;
}

/**
 * Compile a schema for query (or path: `where`) parameters (strings coerced to the declared types), on
 * its first use unless `ahead` is its validator compiled ahead with QUERY_OPTIONS.
 */
export function queryValidator<T>(schema: object, where = 'query', ahead?: ValidateFunction): (query: Record<string, unknown>) => T {
  const check = ahead ? () => ahead : once(() => queryAjv().compile(schema));
  return (query) => {
    const twice = repeated(where, schema, query);
    if (twice.length) invalid(twice);
    const written = nonDecimal(where, schema, query);
    if (written.length) invalid(written);
    const copy = { ...query };
    if (!check()(copy)) invalid(issues(where, check().errors ?? []));
    return copy as T;
  };
}

/** Compile a schema for a JSON body (no coercion: a number sent as a string is wrong), as queryValidator does. */
export function bodyValidator<T>(schema: object, where = 'body', ahead?: ValidateFunction): (body: unknown) => T {
  const check = ahead ? () => ahead : once(() => bodyAjv().compile(schema));
  return (body) => {
    if (!check()(body)) invalid(issues(where, check().errors ?? []));
    return body as T;
  };
}
