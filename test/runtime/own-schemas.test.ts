// svc's own JSON Schemas (request schemas, the hub's file shapes, every capability's body) are valid
// draft 2020-12. The runtime compiles them without this check (validateSchema: false), which would
// otherwise compile the meta-schema on the first request; so it is made here, once, for all of them.
import { Ajv2020 } from 'ajv/dist/2020.js';
import { expect, it } from 'vitest';
import * as requestSchemas from '../../runtime/http/request-schemas.ts';
import { checkFileSchema, toolFileSchema } from '../../runtime/hub/file-schemas.ts';
import { capabilityBodySchema } from '../../language/body-schema.ts';
import { loadRuntime } from '../../runtime/catalog/dist.ts';
import { FIXTURE_DIST, REAL_DIST } from '../helpers/paths.ts';

const meta = new Ajv2020({ strict: false });
const problems = (name: string, schema: object) => (meta.validateSchema(schema) ? [] : [`${name}: ${meta.errorsText(meta.errors)}`]);

it('request schemas and hub file shapes are valid JSON Schemas', () => {
  const own = Object.entries(requestSchemas).filter(([, v]) => typeof v === 'object' && v !== null && (v as { type?: unknown }).type === 'object');
  expect(own.length).toBeGreaterThan(10);
  expect(
    [...own, ['toolFileSchema', toolFileSchema], ['checkFileSchema', checkFileSchema]].flatMap(([name, s]) => problems(String(name), s as object)),
  ).toEqual([]);
});

it('every capability body schema of the real and fixture catalogs is a valid JSON Schema', () => {
  for (const dist of [REAL_DIST, FIXTURE_DIST]) {
    const caps = Object.entries(loadRuntime(dist).capabilities);
    expect(caps.length).toBeGreaterThan(0);
    expect(caps.flatMap(([name, cap]) => problems(name, capabilityBodySchema(cap)))).toEqual([]);
  }
});
