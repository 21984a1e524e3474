// The own routes' request validators compiled ahead (ajv's standalone code), so a server validates
// its requests without loading ajv's compiler: 4-5 MB of resident memory and the first request's
// compile. `npm run build` writes these sources into runtime/http/compiled/; a test compares them with
// what is there (request-checks.ts reads them).
import { createRequire } from 'node:module';
import type { Ajv2020 } from 'ajv/dist/2020.js';
import { newAjv } from '../util/ajv.ts';
import { BODY_OPTIONS, QUERY_OPTIONS, withOwnKeywords } from '../util/validate.ts';
import type { Route } from './declared-route.ts';

/** the key a schema's compiled validator is found under: its JSON text */
export const checkKey = (schema: object): string => JSON.stringify(schema);

export const COMPILED_DIR = new URL('./compiled/', import.meta.url);

const TYPES = `// Types of the module beside this file, written by \`npm run build\` (runtime/http/request-check-sources.ts).
import type { ValidateFunction } from 'ajv/dist/2020.js';

/** validators compiled ahead, by their schema's JSON text */
export declare const checks: Record<string, ValidateFunction>;
`;

/** each file of runtime/http/compiled/ (name -> text) for the path, query and body schemas of `routes` */
export function requestCheckSources(routes: readonly Route[]): Record<string, string> {
  const query = new Map<string, object>();
  const body = new Map<string, object>();
  for (const { request = {} } of routes) {
    for (const s of [request.path, request.query]) if (s) query.set(checkKey(s), s);
    if (request.body) body.set(checkKey(request.body), request.body);
  }
  return {
    'query-checks.js': moduleOf(withOwnKeywords(newAjv({ ...QUERY_OPTIONS, code: { source: true, esm: true } })), query),
    'query-checks.d.ts': TYPES,
    'body-checks.js': moduleOf(withOwnKeywords(newAjv({ ...BODY_OPTIONS, code: { source: true, esm: true } })), body),
    'body-checks.d.ts': TYPES,
  };
}

function moduleOf(ajv: Ajv2020, schemas: Map<string, object>): string {
  const keys = [...schemas.keys()].sort();
  keys.forEach((key, i) => ajv.addSchema(schemas.get(key)!, `check${i}`));
  const standalone = (createRequire(import.meta.url)('ajv/dist/standalone/index.js') as typeof import('ajv/dist/standalone/index.js')).default;
  const code = standalone(ajv, Object.fromEntries(keys.map((_, i) => [`check${i}`, `check${i}`])));
  const table = keys.map((key, i) => `  ${JSON.stringify(key)}: check${i},`).join('\n');
  return [
    "// Written by `npm run build` from the routes' request schemas (runtime/http/request-check-sources.ts). Do not edit.",
    // ajv's ESM output still loads its runtime helpers with require(), which an ES module makes itself
    "import { createRequire } from 'node:module';",
    'const require = createRequire(import.meta.url);',
    code,
    `export const checks = {\n${table}\n};`,
    '',
  ].join('\n');
}
