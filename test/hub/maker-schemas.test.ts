// A maker's schema compiles once per text: a publish's checks, its check run and every later run of
// the version share the validator (a compile costs milliseconds of CPU; a run costs microseconds).
import { expect, it } from 'vitest';
import { compileSchema, validatorsFor } from '../../runtime/hub/maker-schemas.ts';

const pretty = JSON.stringify({ type: 'object', required: ['email'], properties: { email: { type: 'string', pattern: '^[^@]+@[^@]+$' } } }, null, 2);
const files = { 'input.schema.json': pretty, 'output.schema.json': '{"type":"object"}' } as Parameters<typeof validatorsFor>[0]['files'];

it("shares one validator between the publish's checks and the version's runs, and still validates", () => {
  const atPublish = compileSchema(pretty, JSON.parse(pretty));
  const { input } = validatorsFor({ files, tool_id: 'shared-schema', version: 1 });
  expect(input).toBe(atPublish);
  expect(input({ email: 'jane@acme.com' })).toBe(true);
  expect(input({ email: 'not an address' })).toBe(false);
  // another text is another schema
  expect(compileSchema('{"type":"string"}')).not.toBe(atPublish);
});
