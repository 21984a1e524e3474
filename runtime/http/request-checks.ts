// A route's request checks: the validator compiled ahead for its schema (compiled/, written by
// `npm run build` through request-check-sources.ts), or one ajv compiles on first use for a schema
// changed since, so a stale compiled/ costs memory, never correctness.
import type { ValidateFunction } from 'ajv/dist/2020.js';
import { bodyValidator, queryValidator } from '../util/validate.ts';
import { checks as queryChecks } from './compiled/query-checks.js';
import { checks as bodyChecks } from './compiled/body-checks.js';
import { checkKey } from './request-check-sources.ts';

const ahead = (table: Record<string, ValidateFunction>, schema: object) => {
  const key = checkKey(schema);
  return Object.hasOwn(table, key) ? table[key] : undefined;
};

/** path (where 'path') or query parameters checked against schema, strings coerced */
export const queryCheck = <T>(schema: object, where = 'query') => queryValidator<T>(schema, where, ahead(queryChecks, schema));
/** a JSON body (or a batch line: where 'line') checked against schema */
export const bodyCheck = <T>(schema: object, where = 'body') => bodyValidator<T>(schema, where, ahead(bodyChecks, schema));
