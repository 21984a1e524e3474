// ajv loaded on first use rather than at start: it costs about 7 MB and 30 ms to load and more to
// compile, and most starts answer many requests before the first one that validates anything (the
// own routes' schemas are compiled ahead, runtime/http/compiled/, so ajv loads for catalog and hub schemas only).
import { createRequire } from 'node:module';
import type { Ajv2020, Options } from 'ajv/dist/2020.js';

type AjvModule = typeof import('ajv/dist/2020.js');
let loaded: AjvModule | undefined;
const ajvModule = () => (loaded ??= createRequire(import.meta.url)('ajv/dist/2020.js') as AjvModule);

/** a new Ajv (draft 2020-12), loading the package the first time */
export function newAjv(options: Options): Ajv2020 {
  return new (ajvModule().Ajv2020)(options);
}

/** ajv's code template tag, for keywords written as code (a compiled-ahead module can carry those) */
export const ajvCode = (): AjvModule['_'] => ajvModule()._;
