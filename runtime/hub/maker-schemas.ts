// The makers' own JSON Schemas (draft 2020-12): checked against the meta-schema at publish and
// compiled into validators, each in an Ajv of its own so one maker's `$id` can never clash with
// another's. Compiled validators are kept by the schema's text, a bounded number at a time: a new
// version with the schemas of the last compiles nothing (a compile costs milliseconds of CPU).
import type { ErrorObject, ValidateFunction } from 'ajv/dist/2020.js';
import { createHash } from 'node:crypto';
import { Lru } from '../util/lru.ts';
import { newAjv } from '../util/ajv.ts';
import { ajvLinearRegExp, UnsafePattern } from '../util/linear-regexp.ts';
import { fail } from '../util/fail.ts';
import { once } from '../util/once.ts';
import type { VersionRecord } from './types.ts';

// `format` is an annotation, as draft 2020-12 has it by default (no format is enforced, none is
// unknown); nothing a maker writes is logged; the maker's patterns run in linear time (RE2), so a
// pattern can never hold the server, and one RE2 cannot take fails to compile at publish.
const OPTIONS = { allErrors: true, strict: false, validateFormats: false, logger: false, code: { regExp: ajvLinearRegExp } } as const;
const metaChecker = once(() => newAjv(OPTIONS));

/** meta-schema problems of a document, as JSON pointers with a sentence each */
export function schemaProblems(doc: unknown): Array<{ pointer: string; msg: string }> {
  if (metaChecker().validateSchema(doc as object)) return [];
  return (metaChecker().errors ?? []).map((e) => ({
    pointer: e.instancePath,
    msg: `Not a valid JSON Schema (draft 2020-12): ${e.instancePath || 'the document'} ${e.message}.`,
  }));
}

const compiled = new Lru<ValidateFunction>(1000);

/**
 * The validator of a schema file's `text` (`doc`: the text parsed, when the caller has it), kept by
 * the text, so publish and every later run share one compile; throws UnsafePattern, or ajv's error,
 * for a schema that cannot compile.
 */
export function compileSchema(text: string, doc?: object): ValidateFunction {
  const key = createHash('sha256').update(text).digest('base64');
  return compiled.get(key) ?? compiled.set(key, newAjv(OPTIONS).compile(doc ?? JSON.parse(text)));
}

/** a validator's errors as pointers into the data with a sentence each */
export function dataProblems(errors: ErrorObject[] | null | undefined): Array<{ pointer: string; msg: string }> {
  return (errors ?? []).map((e) => {
    const extra =
      e.keyword === 'required'
        ? `/${(e.params as { missingProperty: string }).missingProperty}`
        : e.keyword === 'additionalProperties'
          ? `/${(e.params as { additionalProperty: string }).additionalProperty}`
          : '';
    const pointer = e.instancePath + extra;
    const msg =
      e.keyword === 'required'
        ? `'${pointer}' is required.`
        : e.keyword === 'additionalProperties'
          ? `'${pointer}' is not allowed by the schema.`
          : `'${pointer || '/'}' ${e.message}.`;
    return { pointer, msg };
  });
}

export interface Validators {
  input: ValidateFunction;
  output: ValidateFunction;
}

/**
 * The input and output validators of a stored version (its schemas passed the publish checks). A
 * version stored before patterns ran on RE2 may hold one RE2 refuses: a 409 naming it, before
 * anything runs or is charged, rather than a pattern run the old, unbounded way.
 */
export function validatorsFor({ files, tool_id, version }: Pick<VersionRecord, 'files' | 'tool_id' | 'version'>): Validators {
  const input = files['input.schema.json'];
  const output = files['output.schema.json'];
  try {
    return { input: compileSchema(input), output: compileSchema(output) };
  } catch (e) {
    if (!(e instanceof UnsafePattern)) throw e;
    return fail(409, `${tool_id}@${version} cannot run: ${e.message} Its maker can publish a new version without it. Nothing was charged.`);
  }
}
