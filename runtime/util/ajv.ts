// ajv loaded on first use rather than at start: it costs about 7 MB and 30 ms to load and more to
// compile, and most starts answer many requests before the first one that validates anything.
import { createRequire } from 'node:module';
import type { Ajv2020, Options } from 'ajv/dist/2020.js';

let Ajv: typeof Ajv2020 | undefined;

/** a new Ajv (draft 2020-12), loading the package the first time */
export function newAjv(options: Options): Ajv2020 {
  Ajv ??= (createRequire(import.meta.url)('ajv/dist/2020.js') as typeof import('ajv/dist/2020.js')).Ajv2020;
  return new Ajv(options);
}
