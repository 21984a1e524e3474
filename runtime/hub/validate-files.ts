// A publish's four files checked together, every problem reported at once: each as a 422 issue
// whose loc names the file and the JSON pointer inside it. Templates are checked against the input
// schema, the step order and each step's output contract, so a tool that can never work is refused
// here rather than failing its check.
import type { ValidateFunction } from 'ajv/dist/2020.js';
import type { RuntimeCatalog } from '../../language/types.ts';
import type { ValidationIssue } from '../util/fail.ts';
import { parseUsdToMicro } from '../state/index.ts';
import { checkFileSchema, toolFileSchema } from './file-schemas.ts';
import { compileSchema, dataProblems, schemaProblems } from './maker-schemas.ts';
import { literalProblem, stepTarget, unfillable, type StepTarget } from './step-target.ts';
import { parseRef, templatesIn } from './templates.ts';
import { newAjv } from '../util/ajv.ts';
import { once } from '../util/once.ts';
import { UnsafePattern } from '../util/linear-regexp.ts';
import { FILE_NAMES, type CheckFile, type FileName, type ToolFile, type ToolSpec } from './types.ts';

// compiled on the first publish rather than at start; svc's own schemas, checked against the
// meta-schema by test/runtime/own-schemas.test.ts (as validate.ts's are)
const shapes = once(() => {
  const ajv = newAjv({ allErrors: true, strict: false, validateSchema: false });
  return { tool: ajv.compile(toolFileSchema), check: ajv.compile(checkFileSchema) };
});

type Report = (file: FileName, pointer: string, msg: string, type: string) => void;

const esc = (s: string) => s.replace(/~/g, '~0').replace(/\//g, '~1');
const quoted = (names: Iterable<string>) => [...names].map((n) => `'${n}'`).join(', ') || 'none';

export function validateFiles(
  files: Record<FileName, string>,
  runtime: RuntimeCatalog,
): { spec: ToolSpec; price_micro: number } | { issues: ValidationIssue[] } {
  const issues: ValidationIssue[] = [];
  const report: Report = (file, pointer, msg, type) => issues.push({ loc: ['body', 'files', file, pointer], msg, type });
  const docs = {} as Record<FileName, unknown>;
  for (const name of FILE_NAMES) {
    try {
      docs[name] = JSON.parse(files[name]);
    } catch (e) {
      report(name, '', `${name} is not valid JSON (${(e as Error).message.slice(0, 120)}).`, 'value_error.json');
    }
  }
  const tool = shaped<ToolFile>(docs['tool.json'], 'tool.json', shapes().tool, report);
  const check = shaped<CheckFile>(docs['check.json'], 'check.json', shapes().check, report);
  const inputSchema = jsonSchema(files, docs, 'input.schema.json', report);
  const outputSchema = jsonSchema(files, docs, 'output.schema.json', report);

  let price_micro = 0;
  if (tool) {
    const price = tool.price_usd;
    const micro = typeof price === 'number' || typeof price === 'string' ? parseUsdToMicro(price) : null;
    if (micro === null)
      report('tool.json', '/price_usd', 'price_usd must be a USD amount ≥ 0 with at most 6 decimals, up to 9007199254.740991.', 'value_error.price');
    else price_micro = micro;
    checkSteps(tool, runtime, inputSchema, report);
  }
  if (tool && outputSchema) {
    const required = Array.isArray(outputSchema.required) ? (outputSchema.required as unknown[]).filter((r): r is string => typeof r === 'string') : [];
    for (const field of required.filter((r) => !Object.hasOwn(tool.output, r))) {
      report('tool.json', '/output', `output.schema.json requires '${field}', which tool.json's output never sets.`, 'value_error.output');
    }
  }
  if (check && inputSchema) {
    const validate = compileSchema(files['input.schema.json'], inputSchema);
    if (!validate(check.input))
      for (const p of dataProblems(validate.errors))
        report('check.json', `/input${p.pointer}`, `check.json's input does not fit input.schema.json: ${p.msg}`, 'value_error.check_input');
  }
  if (check?.expect && tool) {
    for (const field of Object.keys(check.expect).filter((f) => !Object.hasOwn(tool.output, f))) {
      report(
        'check.json',
        `/expect/${esc(field)}`,
        `expect names '${field}', which tool.json's output does not set (it sets ${quoted(Object.keys(tool.output))}).`,
        'value_error.expect',
      );
    }
  }
  if (issues.length) return { issues };
  return { spec: { tool: tool!, input_schema: inputSchema!, output_schema: outputSchema!, check: check! }, price_micro };
}

function shaped<T>(doc: unknown, file: FileName, validate: ValidateFunction, report: Report): T | null {
  if (doc === undefined) return null;
  if (validate(doc)) return doc as T;
  for (const p of dataProblems(validate.errors)) report(file, p.pointer, `${file}: ${p.msg}`, 'value_error.shape');
  return null;
}

/** a maker's schema: any valid draft 2020-12 schema object whose patterns RE2 can run */
function jsonSchema(files: Record<FileName, string>, docs: Record<FileName, unknown>, file: FileName, report: Report): Record<string, unknown> | null {
  const doc = docs[file];
  if (doc === undefined) return null;
  if (!doc || typeof doc !== 'object' || Array.isArray(doc)) {
    report(file, '', `${file} must be a JSON Schema object.`, 'value_error.schema');
    return null;
  }
  const problems = schemaProblems(doc);
  for (const p of problems) report(file, p.pointer, p.msg, 'value_error.schema');
  if (problems.length) return null;
  try {
    compileSchema(files[file], doc);
  } catch (e) {
    const msg = e instanceof UnsafePattern ? `${file}: ${e.message}` : `${file} does not compile: ${(e as Error).message.slice(0, 200)}.`;
    report(file, '', msg, e instanceof UnsafePattern ? 'value_error.pattern' : 'value_error.schema');
    return null;
  }
  return doc as Record<string, unknown>;
}

/** the top-level fields a schema declares: those under `properties` and those it names in `required` */
function declaredFields(schema: Record<string, unknown>): Set<string> {
  const props = schema.properties && typeof schema.properties === 'object' ? Object.keys(schema.properties) : [];
  const required = Array.isArray(schema.required) ? schema.required.filter((r): r is string => typeof r === 'string') : [];
  return new Set([...props, ...required]);
}

function checkSteps(tool: ToolFile, runtime: RuntimeCatalog, inputSchema: Record<string, unknown> | null, report: Report): void {
  const inputFields = inputSchema ? declaredFields(inputSchema) : null;
  const earlier = new Map<string, StepTarget | null>();
  const checkValue = (value: unknown, pointer: string, steps: Map<string, StepTarget | null>) => {
    if (value !== null && typeof value === 'object' && JSON.stringify(value).includes('{{')) {
      report(
        'tool.json',
        pointer,
        'Templates fill a whole value or text, not the inside of a list or object: a template there would be sent as it is.',
        'value_error.template',
      );
    }
    for (const inner of templatesIn(value)) {
      const ref = parseRef(inner.trim());
      if (!ref) {
        report(
          'tool.json',
          pointer,
          `'{{${inner}}}' is not a template svc understands: use {{input.<field>}} or {{steps.<id>.output.<field>}}.`,
          'value_error.template',
        );
      } else if (ref.kind === 'input') {
        if (inputFields && !inputFields.has(ref.field))
          report(
            'tool.json',
            pointer,
            `'{{${inner}}}' reads input field '${ref.field}', which input.schema.json does not declare (it declares ${quoted(inputFields)}).`,
            'value_error.template',
          );
      } else if (!steps.has(ref.step)) {
        report(
          'tool.json',
          pointer,
          `'{{${inner}}}' reads step '${ref.step}', which does not run before this point (steps before it: ${quoted(steps.keys())}).`,
          'value_error.template',
        );
      } else {
        const target = steps.get(ref.step);
        if (target?.returns === null)
          report(
            'tool.json',
            pointer,
            `'{{${inner}}}' reads the answer of ${target.call}, which has no captured example, so svc cannot check what it returns; call its routed capability instead.`,
            'value_error.template',
          );
        else if (target && !target.returns.has(ref.field))
          report(
            'tool.json',
            pointer,
            `'{{${inner}}}' reads '${ref.field}', which ${target.call} never returns (it returns ${quoted(target.returns)}).`,
            'value_error.template',
          );
      }
    }
  };
  tool.steps.forEach((step, i) => {
    const at = `/steps/${i}`;
    if (earlier.has(step.id)) report('tool.json', `${at}/id`, `Step id '${step.id}' is used twice.`, 'value_error.step');
    const target = stepTarget(runtime, step.call);
    if (!target)
      report('tool.json', `${at}/call`, `'${step.call}' is neither a routed capability (svc.<capability>) nor a catalog operation.`, 'value_error.call');
    for (const [field, value] of Object.entries(step.with)) {
      const pointer = `${at}/with/${esc(field)}`;
      if (target && !target.accepts.has(field))
        report('tool.json', pointer, `${target.call} takes no field '${field}' (it takes ${quoted(target.accepts)}).`, 'value_error.with');
      const literal = target && !templatesIn(value).length ? literalProblem(target, field, value) : null;
      if (literal) report('tool.json', pointer, literal, 'value_error.with');
      checkValue(value, pointer, earlier);
    }
    const why = target && unfillable(target, Object.keys(step.with));
    if (why) report('tool.json', `${at}/with`, why, 'value_error.with');
    earlier.set(step.id, target);
  });
  for (const [field, value] of Object.entries(tool.output)) checkValue(value, `/output/${esc(field)}`, earlier);
}
