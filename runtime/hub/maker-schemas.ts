// The makers' own JSON Schemas (draft 2020-12): checked against the meta-schema at publish and
// compiled into validators, each in an Ajv of its own so one maker's `$id` can never clash with
// another's. Compiled validators are kept per version, a bounded number at a time.
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import { Lru } from '../util/lru.ts';
import type { ToolSpec } from './types.ts';

const metaChecker = new Ajv2020({ allErrors: true, strict: false });

/** meta-schema problems of a document, as JSON pointers with a sentence each */
export function schemaProblems(doc: unknown): Array<{ pointer: string; msg: string }> {
  if (metaChecker.validateSchema(doc as object)) return [];
  return (metaChecker.errors ?? []).map((e) => ({ pointer: e.instancePath, msg: `Not a valid JSON Schema (draft 2020-12): ${e.instancePath || 'the document'} ${e.message}.` }));
}

export function compileSchema(doc: object): ValidateFunction {
  return new Ajv2020({ allErrors: true, strict: false }).compile(doc);
}

/** a validator's errors as pointers into the data with a sentence each */
export function dataProblems(errors: ErrorObject[] | null | undefined): Array<{ pointer: string; msg: string }> {
  return (errors ?? []).map((e) => {
    const extra = e.keyword === 'required' ? `/${(e.params as { missingProperty: string }).missingProperty}`
      : e.keyword === 'additionalProperties' ? `/${(e.params as { additionalProperty: string }).additionalProperty}` : '';
    const pointer = e.instancePath + extra;
    const msg = e.keyword === 'required' ? `'${pointer}' is required.` : e.keyword === 'additionalProperties' ? `'${pointer}' is not allowed by the schema.` : `'${pointer || '/'}' ${e.message}.`;
    return { pointer, msg };
  });
}

export interface Validators {
  input: ValidateFunction;
  output: ValidateFunction;
}

const compiled = new Lru<Validators>(500);

/** the input and output validators of a published version (its schemas passed the publish checks) */
export function validatorsFor(key: string, spec: Pick<ToolSpec, 'input_schema' | 'output_schema'>): Validators {
  return compiled.get(key) ?? compiled.set(key, { input: compileSchema(spec.input_schema), output: compileSchema(spec.output_schema) });
}
