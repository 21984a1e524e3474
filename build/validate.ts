// Validation: every file against its JSON Schema (ajv, compiled once), then the cross-checks a schema
// cannot express. Pure: data in, positioned errors out.
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import platformsSchema from './schema/platforms.schema.json' with { type: 'json' };
import capabilitySchema from './schema/capability.schema.json' with { type: 'json' };
import providerSchema from './schema/provider.schema.json' with { type: 'json' };
import vocabularySchema from './schema/vocabulary.schema.json' with { type: 'json' };
import finderSchema from './schema/finder.schema.json' with { type: 'json' };
import type { LoadedCatalog, SourceFile } from './load.ts';
import type { CapabilitySrc, FinderSrc, OperationSrc, ProviderSrc, SourcePos, VocabularyFileSrc } from '../language/types.ts';
import { transforms } from '../language/transforms.ts';
import { FIELD_FORMATS } from '../language/field-formats.ts';
import { capabilitySample } from '../language/call-template.ts';
import { deriveRules } from '../language/derived-fields.ts';
import { parsePath } from '../language/json-path.ts';
import { isUnsafePath } from '../language/paths.ts';
import { operationCapability } from './resolve-endpoint.ts';
import { sameRequestErrors } from './validate-same-request.ts';
import { formatError, type BuildError } from './build-error.ts';
import { basename } from 'node:path';
import { LineCounter, parseDocument } from 'yaml';
import { chargeErrors, pathTies } from './validate-pass-through.ts';
import { factErrors, priceEvidenceErrors } from './validate-evidence.ts';
import { exchangeErrors, reportedChargeErrors } from './validate-reported.ts';
import { freeTextError, vocabularyFileErrors } from './validate-vocabulary.ts';

/** JSON.parse says whether an example is JSON; YAML's JSON mode says where it is not. */
function jsonErrorPos(file: string, text: string): SourcePos {
  const lines = new LineCounter();
  const first = parseDocument(text, { schema: 'json', lineCounter: lines, prettyErrors: false }).errors[0];
  return first ? { file, ...lines.linePos(first.pos[0]) } : { file, line: 1, col: 1 };
}

const ajv = new Ajv2020({ allErrors: true, strict: false });
const validators: Record<'platforms' | 'finder' | 'capability' | 'provider' | 'vocabulary', ValidateFunction> = {
  platforms: ajv.compile(platformsSchema),
  finder: ajv.compile(finderSchema),
  capability: ajv.compile(capabilitySchema),
  provider: ajv.compile(providerSchema),
  // after capability: it refers to the capability schema's vocabulary
  vocabulary: ajv.compile(vocabularySchema),
};

function schemaErrors(kind: keyof typeof validators, src: SourceFile<unknown>, provider?: string): BuildError[] {
  const validate = validators[kind];
  if (validate(src.data)) return [];
  // oneOf/if branches repeat the real cause; keep the most specific message per location.
  const seen = new Set<string>();
  const all = validate.errors ?? [];
  const isNullBranch = (e: ErrorObject) => e.keyword === 'type' && (e.params as { type: string }).type === 'null';
  return all
    .filter((e: ErrorObject) => !['oneOf', 'if', 'allOf'].includes(e.keyword))
    .filter((e) => !isNullBranch(e) || !all.some((o) => o !== e && !isNullBranch(o) && o.keyword !== 'oneOf' && o.instancePath.startsWith(e.instancePath)))
    .map((e: ErrorObject) => {
      const path = e.instancePath
        .split('/')
        .slice(1)
        .map((s) => (/^\d+$/.test(s) ? Number(s) : s.replace(/~1/g, '/').replace(/~0/g, '~')));
      const where = e.instancePath.replace(/^\//, '').replace(/\//g, '.') || '(top)';
      const extra =
        e.keyword === 'additionalProperties'
          ? ` '${(e.params as { additionalProperty: string }).additionalProperty}'`
          : e.keyword === 'enum'
            ? ` (${(e.params as { allowedValues: unknown[] }).allowedValues.join(', ')})`
            : '';
      return { pos: src.pos(path), provider, message: `${where}: ${e.message}${extra}` };
    })
    .filter((e) => (seen.has(formatError(e)) ? false : (seen.add(formatError(e)), true)));
}

const PATH_PARAM = /\{([a-zA-Z0-9_]+)\}/g;

/** Every check of one provider operation that depends on other files. */
function checkOperation(
  op: OperationSrc,
  at: (...path: Array<string | number>) => SourcePos,
  ctx: { provider: ProviderSrc; capabilities: Map<string, CapabilitySrc>; platforms: Set<string>; examples: LoadedCatalog['examples']; allIds: Set<string> },
): BuildError[] {
  const errs: BuildError[] = [];
  const err = (message: string, ...path: Array<string | number>) => errs.push({ pos: at(...path), provider: ctx.provider.service, message });
  if (!op.id.startsWith(`${ctx.provider.service}.`)) err(`id ${op.id}: must start with '${ctx.provider.service}.'`, 'id');

  if (isUnsafePath(op.path)) err(`path ${op.path}: no dot segments, encoded dots or slashes, or backslashes`, 'path');
  const declared = new Set(Object.keys(op.input.pathParams ?? {}));
  const inPath = new Set([...op.path.matchAll(PATH_PARAM)].map((m) => m[1]));
  for (const p of inPath) if (!declared.has(p)) err(`path {${p}} is not a declared path parameter (input.pathParams)`, 'path');
  for (const p of declared) if (!inPath.has(p)) err(`input.pathParams.${p} does not appear in path ${op.path}`, 'input', 'pathParams', p);

  const platform = op.platform ?? ctx.provider.defaults?.platform;
  if (!platform) err('no platform (set it on the operation or in defaults)', 'id');
  else if (!ctx.platforms.has(platform)) err(`platform '${platform}' is not in platforms.yaml`, 'platform');

  if (op.cost && op.cost.type !== 'free' && op.cost.usd === null && op.serves) err('cost.usd: a routed child needs a price in USD', 'cost', 'usd');
  errs.push(...chargeErrors(op, at, ctx.provider), ...priceEvidenceErrors(op, at, ctx.provider), ...reportedChargeErrors(op, at, ctx.provider));
  if (op.async) {
    if (!ctx.allIds.has(op.async.poll.endpoint))
      err(`async.poll.endpoint '${op.async.poll.endpoint}' is not an operation in the catalog`, 'async', 'poll', 'endpoint');
  }

  if (op.cost && op.cost.type !== 'per_result') {
    for (const k of ['rows_per_unit', 'min_units'] as const) if (op.cost[k] !== undefined) err(`cost.${k} only applies to per_result pricing`, 'cost', k);
  }

  if (!op.serves) {
    for (const k of ['accepts', 'request', 'response', 'bills_miss', 'bills_contract_miss'] as const)
      if (op[k] !== undefined) err(`${k} only makes sense with serves`, k);
    return errs;
  }
  // one place says where a child's answer lists its billed rows
  if (op.page_size?.rows) err('page_size.rows is for operations that serve no capability; a routed child says it in response.rows', 'page_size', 'rows');
  const cap = ctx.capabilities.get(op.serves);
  if (!cap) {
    err(`serves '${op.serves}': no such capability in catalog-src/capabilities/`, 'serves');
    return errs;
  }
  if (!op.docs_url) err('a routed child needs docs_url', 'docs_url');
  // The router and the sandbox read bills_miss the same way only where it means something.
  if (op.bills_miss && (op.cost?.type === 'per_success' || op.cost?.type === 'free'))
    err(`bills_miss: true contradicts cost type ${op.cost.type} (billed only on success, or never)`, 'bills_miss');
  if (op.bills_miss && op.cost?.type === 'per_result' && !op.cost.min_units)
    err('bills_miss: true on per_result pricing bills a miss nothing (it has no rows) unless cost.min_units says what it pays', 'bills_miss');
  // A contract miss is charged what an answered call with no rows costs: only per_call and a per_result minimum have one.
  if (op.bills_contract_miss && (op.cost?.type === 'per_success' || op.cost?.type === 'free'))
    err(`bills_contract_miss: true contradicts cost type ${op.cost.type} (an answered call is billed only on success, or never)`, 'bills_contract_miss');
  if (op.bills_contract_miss && op.cost?.type === 'per_result' && !op.cost.min_units)
    err(
      'bills_contract_miss: true on per_result pricing bills a contract miss nothing (it has no rows) unless cost.min_units says what an answered call pays',
      'bills_contract_miss',
    );
  // It sets the contract's misses apart from the provider's own: with no own miss form, or every miss billed, there is nothing to set apart.
  if (op.bills_contract_miss && !op.miss?.status?.length && !op.miss?.when?.length)
    err(
      "bills_contract_miss: true needs the provider's own miss (miss.status or miss.when); without one every miss is a contract miss, so say bills_miss",
      'bills_contract_miss',
    );
  if (op.bills_contract_miss && op.bills_miss)
    err('bills_contract_miss: true adds nothing to bills_miss: true (every miss is billed already)', 'bills_contract_miss');
  if (!op.cost) err('a routed child needs a cost', 'id');
  if (!ctx.examples.has(op.id)) err(`a routed child needs a captured example: examples/${op.id}.json`, 'id');

  const sets = cap.identity.map((s) => [...s].sort().join('+'));
  const contractIn = new Set([...Object.keys(cap.fields), ...Object.keys(cap.filters ?? {})]);
  const mapped = new Set(op.request!.map.map((m) => m.from));
  op.accepts!.forEach((set, i) => {
    if (!sets.includes([...set].sort().join('+'))) err(`accepts[${i}] {${set.join(', ')}} is not an identity set of ${cap.capability}`, 'accepts', i);
    for (const f of set) if (!mapped.has(f)) err(`accepts[${i}]: field '${f}' is accepted but request.map never sends it`, 'accepts', i);
  });
  op.request!.map.forEach((m, i) => {
    if (!contractIn.has(m.from)) err(`request.map[${i}].from '${m.from}': no such contract field or filter in ${cap.capability}`, 'request', 'map', i, 'from');
    if (m.transform && !transforms[m.transform])
      err(`request.map[${i}].transform '${m.transform}': unknown (see language/transforms.ts)`, 'request', 'map', i, 'transform');
    if (m.to.startsWith('path.') && !declared.has(m.to.slice(5)))
      err(`request.map[${i}].to '${m.to}': not a path parameter of ${op.path}`, 'request', 'map', i, 'to');
    if (parsePath(m.to).length < 2 && !m.to.startsWith('body[')) err(`request.map[${i}].to '${m.to}': names no parameter`, 'request', 'map', i, 'to');
  });
  for (const [i, f] of (op.request!.ignores ?? []).entries()) {
    if (!cap.filters?.[f]) err(`request.ignores[${i}] '${f}': not a filter of ${cap.capability}`, 'request', 'ignores', i);
    if (mapped.has(f)) err(`request.ignores[${i}] '${f}': both mapped and ignored`, 'request', 'ignores', i);
  }
  for (const f of Object.keys(cap.filters ?? {})) {
    if (!mapped.has(f) && !(op.request!.ignores ?? []).includes(f))
      err(`filter '${f}' of ${cap.capability} is neither mapped nor listed in request.ignores`, 'request');
  }
  for (const [field, spec] of Object.entries(op.response!.output)) {
    const out = cap.output[field];
    if (!out) {
      err(`response.output.${field}: no such contract field in ${cap.capability}`, 'response', 'output', field);
      continue;
    }
    if (typeof spec === 'object') {
      if (spec.transform && !transforms[spec.transform])
        err(`response.output.${field}.transform '${spec.transform}': unknown`, 'response', 'output', field, 'transform');
      for (const [k, item] of Object.entries(spec.items ?? {})) {
        if (typeof item === 'object' && !transforms[item.transform])
          err(`response.output.${field}.items.${k}.transform '${item.transform}': unknown`, 'response', 'output', field, 'items', k, 'transform');
      }
      if ((spec.items || spec.where) && out.type !== 'list')
        err(`response.output.${field}: items/where only apply to list fields`, 'response', 'output', field);
    }
  }
  for (const [field, out] of Object.entries(cap.output)) {
    if (out.required && !(field in op.response!.output)) err(`response.output: required contract field '${field}' is not mapped`, 'response', 'output');
  }
  if (op.cost?.type === 'per_result' && !op.response!.rows && !Object.values(cap.output).some((o) => o.type === 'list')) {
    err('per_result pricing needs response.rows (the list whose length is billed)', 'cost', 'type');
  }
  if (op.cost?.type === 'per_result' && !mapped.has('limit') && op.response!.max_rows === undefined) {
    err(
      'per_result pricing without request.map of `limit` needs response.max_rows (the page size it asks for), or the worst-case charge is unknown',
      'response',
    );
  }
  return errs;
}

/** The seed's wording for capabilities where a call that no child serves pays at most one child. */
const SEED_ONE_PAID = 'only the serving child is paid';

function checkCapability(
  cap: SourceFile<CapabilitySrc>,
  names: { capabilities: Set<string>; platforms: Set<string>; opCapabilities: Set<string>; partial: boolean },
): BuildError[] {
  const errs: BuildError[] = [];
  const c = cap.data;
  const err = (message: string, ...path: Array<string | number>) => errs.push({ pos: cap.pos(path), message });
  const expected = basename(cap.file, '.yaml');
  if (c.capability !== expected) err(`capability '${c.capability}' must match its file name '${expected}.yaml'`, 'capability');
  if (!names.platforms.has(c.platform)) err(`platform '${c.platform}' is not in platforms.yaml`, 'platform');
  c.identity.forEach((set, i) =>
    set.forEach((f, j) => {
      if (!c.fields[f]) err(`identity[${i}]: '${f}' has no type in fields`, 'identity', i, j);
    }),
  );
  for (const [field, format] of Object.entries(c.formats ?? {})) {
    const type = c.fields[field];
    if (!type) err(`formats.${field}: not a field of this capability`, 'formats', field);
    else if (type !== 'str' && type !== 'url') err(`formats.${field}: only str and url fields take a format, not ${type}`, 'formats', field);
    if (!Object.hasOwn(FIELD_FORMATS, format)) err(`formats.${field} '${format}': unknown (see language/field-formats.ts)`, 'formats', field);
    // the field's sample value goes into every call template: it must be a valid call
    else if (type && !new RegExp(FIELD_FORMATS[format].pattern, 'u').test(String(capabilitySample(c, field))))
      err(`formats.${field}: the sample value of ${field} is not ${FIELD_FORMATS[format].expected}`, 'formats', field);
  }
  for (const field of Object.keys(c.samples ?? {})) if (!c.fields[field]) err(`samples.${field}: not a field of this capability`, 'samples', field);
  const missField = /^output\.([a-z0-9_]+)/.exec(c.miss)?.[1];
  if (missField && !c.output[missField]) err(`miss names output.${missField}, which is not an output field`, 'miss');
  for (const [field, d] of Object.entries(c.derive ?? {})) {
    if (!c.fields[field]) err(`derive.${field}: not a field of this capability`, 'derive', field);
    if (!deriveRules[d.rule]) err(`derive.${field}.rule '${d.rule}': unknown (see language/derived-fields.ts)`, 'derive', field, 'rule');
    d.from.forEach((f, i) => {
      if (!c.fields[f]) err(`derive.${field}.from[${i}] '${f}': not a field of this capability`, 'derive', field, 'from', i);
    });
  }
  (c.related ?? []).forEach((r, i) => {
    if (!names.partial && !names.capabilities.has(r.capability) && !names.opCapabilities.has(r.capability))
      err(`related[${i}] '${r.capability}': no routed capability or operation has it`, 'related', i, 'capability');
  });
  if (c.verify && !names.capabilities.has(c.verify.capability)) err(`verify.capability '${c.verify.capability}': no such capability`, 'verify', 'capability');
  for (const field of Object.keys(c.vocabulary?.has ?? {})) {
    if (!c.identity.some((set) => set.includes(field))) err(`vocabulary.has.${field}: not in any identity set`, 'vocabulary', 'has', field);
  }
  for (const field of Object.keys(c.vocabulary?.gets ?? {})) {
    if (!c.output[field]) err(`vocabulary.gets.${field}: not an output field`, 'vocabulary', 'gets', field);
  }
  const free = freeTextError(c.vocabulary);
  if (free) err(free, 'vocabulary', 'free_text');
  const m = c.misses;
  if (m?.seed === SEED_ONE_PAID && !m.final && !(m.billed_at_most !== undefined && m.billed_at_most <= 1)) {
    err(
      `misses.seed says '${SEED_ONE_PAID}': set misses.final or misses.billed_at_most: 1, so a call that no child serves pays at most one child`,
      'misses',
      'seed',
    );
  }
  return errs;
}

export function validateCatalog(cat: LoadedCatalog): BuildError[] {
  const errors: BuildError[] = cat.syntaxErrors.map((e) => ({ pos: e.pos, message: e.message }));
  if (!cat.platforms) {
    errors.push({ pos: { file: `${cat.root}/platforms.yaml`, line: 1, col: 1 }, message: 'platforms.yaml is missing' });
    return errors;
  }
  errors.push(...schemaErrors('platforms', cat.platforms));
  if (cat.finder) errors.push(...schemaErrors('finder', cat.finder));
  const capErrs = cat.capabilities.map((c) => schemaErrors('capability', c));
  const provErrs = cat.providers.map((p) => schemaErrors('provider', p, p.data?.service));
  errors.push(...capErrs.flat(), ...provErrs.flat());
  const caps = cat.capabilities.filter((_, i) => capErrs[i].length === 0);
  const provs = cat.providers.filter((_, i) => provErrs[i].length === 0);

  const platforms = new Set((cat.platforms.data.platforms ?? []).map((p) => p.slug));
  const capabilities = new Map(caps.map((c) => [c.data.capability, c.data]));
  const opCapabilities = new Set<string>();
  const idAt = new Map<string, SourcePos>();
  const childRoutes = new Map<string, SourcePos>();
  /** files whose service is not their name: that one error, not one more per operation id */
  const misnamed = new Set<SourceFile<ProviderSrc>>();
  for (const p of provs) {
    const expected = basename(p.file, '.yaml');
    if (p.data.service !== expected) {
      errors.push({ pos: p.pos(['service']), provider: p.data.service, message: `service '${p.data.service}' must match its file name '${expected}.yaml'` });
      misnamed.add(p);
    }
    p.data.operations.forEach((op, i) => {
      opCapabilities.add(operationCapability(p.data.service, op));
      const first = idAt.get(op.id);
      if (first)
        errors.push({ pos: p.pos(['operations', i, 'id']), provider: p.data.service, message: `duplicate id ${op.id} (first at ${first.file}:${first.line})` });
      else idAt.set(op.id, p.pos(['operations', i, 'id']));
      if (op.serves) {
        const key = `${op.serves} ${p.data.service} ${op.method} ${op.path}`;
        const twin = childRoutes.get(key);
        if (twin)
          errors.push({
            pos: p.pos(['operations', i, 'path']),
            provider: p.data.service,
            message: `a second child of ${op.serves} with the same provider, method and path (first at ${twin.file}:${twin.line})`,
          });
        else childRoutes.set(key, p.pos(['operations', i, 'path']));
      }
    });
  }
  for (const p of provs) errors.push(...sameRequestErrors(p));
  for (const p of provs) errors.push(...exchangeErrors(p.data, p.pos(['auth'])));
  const capabilityNames = new Set(capabilities.keys());
  for (const c of caps) errors.push(...checkCapability(c, { capabilities: capabilityNames, platforms, opCapabilities, partial: cat.partial }));
  for (const v of cat.vocabularies) {
    const schema = schemaErrors('vocabulary', v);
    errors.push(...(schema.length ? schema : vocabularyFileErrors(v, { routed: capabilityNames, opCapabilities, partial: cat.partial })));
  }
  if (cat.finder?.data.about) errors.push(...aboutErrors(cat.finder, capabilities, cat.vocabularies));
  const allIds = new Set(idAt.keys());
  for (const p of provs) {
    if (misnamed.has(p)) continue;
    errors.push(...pathTies(p), ...factErrors(p.data, (...path) => p.pos(path)));
    p.data.operations.forEach((op, i) => {
      errors.push(
        ...checkOperation(op, (...path) => p.pos(['operations', i, ...path]), { provider: p.data, capabilities, platforms, examples: cat.examples, allIds }),
      );
    });
  }
  for (const [id, ex] of cat.examples) {
    const pos = { file: ex.file, line: 1, col: 1 };
    try {
      JSON.parse(ex.text);
    } catch (e) {
      errors.push({ pos: jsonErrorPos(ex.file, ex.text), message: `example is not valid JSON: ${(e as Error).message.split('\n')[0]}` });
    }
    if (!allIds.has(id) && !cat.partial && !cat.unreadable.has(id.split('.')[0])) errors.push({ pos, message: `example names no operation: ${id}` });
  }
  return errors.sort((a, b) => a.pos.file.localeCompare(b.pos.file) || a.pos.line - b.pos.line || a.pos.col - b.pos.col);
}

/**
 * finder.yaml's `about`: each capability routed here and taking the field it stands under in an identity
 * set, or one of vocabulary/ whose `has` names the field
 */
function aboutErrors(finder: SourceFile<FinderSrc>, capabilities: Map<string, CapabilitySrc>, words: SourceFile<VocabularyFileSrc>[]): BuildError[] {
  return Object.entries(finder.data.about ?? []).flatMap(([field, name]) => {
    const cap = capabilities.get(name);
    const unrouted = words.find((v) => v.data?.capability === name)?.data;
    const message = cap
      ? cap.identity.some((set) => set.includes(field))
        ? null
        : `about: ${name} takes no ${field} (its identity sets: ${cap.identity.map((s) => s.join(' + ')).join(', ')})`
      : unrouted
        ? Object.hasOwn(unrouted.vocabulary.has ?? {}, field)
          ? null
          : `about: ${name} takes no ${field} (its vocabulary's has: ${Object.keys(unrouted.vocabulary.has ?? {}).join(', ')})`
        : `about: ${name} is no capability of capabilities/ or vocabulary/`;
    return message ? [{ pos: finder.pos(['about', field]), message }] : [];
  });
}
