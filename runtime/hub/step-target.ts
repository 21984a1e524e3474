// What a step's `call` names, and the contract a publish is checked against: which fields `with`
// may set, which it must set, and which output fields later templates may read.
import type { CapabilitySrc, OperationRuntime, RuntimeCatalog } from '../../language/types.ts';
import { bodyValidator } from '../util/validate.ts';
import { capabilityBodySchema, contractInputs } from '../../language/body-schema.ts';
import { perObject } from '../../language/remember.ts';

export type StepTarget =
  | { kind: 'routed'; call: string; capability: string; accepts: Set<string>; returns: Set<string>; cap: CapabilitySrc }
  | { kind: 'operation'; call: string; op: OperationRuntime; accepts: Set<string>; returns: Set<string> | null };

const ROUTED = /^svc\.(.+)$/;

/** the target of a `call`, or null when it names nothing svc can call */
export function stepTarget(runtime: RuntimeCatalog, call: string): StepTarget | null {
  const routed = ROUTED.exec(call);
  if (routed && Object.hasOwn(runtime.capabilities, routed[1])) {
    const cap = runtime.capabilities[routed[1]];
    return {
      kind: 'routed',
      call,
      capability: routed[1],
      cap,
      accepts: new Set(contractInputs(cap).map((f) => f.name)),
      returns: new Set(Object.keys(cap.output)),
    };
  }
  if (!Object.hasOwn(runtime.operations, call)) return null;
  const op = runtime.operations[call];
  const params = { ...op.input.pathParams, ...op.input.queryParams, ...op.input.body };
  // An operation's answer is the provider's own JSON: its captured example's fields are the only contract svc has.
  return { kind: 'operation', call, op, accepts: new Set(Object.keys(params)), returns: op.returns ? new Set(op.returns) : null };
}

/** why a step that sets `keys` can never be called, or null when it can */
export function unfillable(target: StepTarget, keys: string[]): string | null {
  if (target.kind === 'operation') {
    const { pathParams, queryParams, body } = target.op.input;
    const required = Object.entries({ ...pathParams, ...queryParams, ...body })
      .filter(([, p]) => p.required)
      .map(([k]) => k);
    const missing = required.filter((k) => !keys.includes(k));
    return missing.length ? `${target.call} requires ${missing.map((k) => `'${k}'`).join(', ')}.` : null;
  }
  // the fields the router can derive from the ones given count as given
  const have = new Set(keys);
  for (let pass = 0, changed = true; changed && pass < 4; pass++) {
    changed = false;
    for (const [field, d] of Object.entries(target.cap.derive ?? {})) {
      if (!have.has(field) && d.from.every((f) => have.has(f))) {
        have.add(field);
        changed = true;
      }
    }
  }
  if (target.cap.identity.some((set) => set.every((f) => have.has(f)))) return null;
  return `${target.call} needs one of these identity sets: ${target.cap.identity.map((s) => `{${s.join(', ')}}`).join(' or ')}.`;
}

/** a capability's body validator, compiled once per capability */
const bodyCheck = perObject((cap: CapabilitySrc) => bodyValidator(capabilityBodySchema(cap)));

/** why a literal `with` value would be refused by the router (the router's own body check), or null */
export function literalProblem(target: StepTarget, field: string, value: unknown): string | null {
  if (target.kind !== 'routed' || !target.accepts.has(field)) return null;
  try {
    bodyCheck(target.cap)({ [field]: value });
    return null;
  } catch (e) {
    const detail = (e as { data?: { detail?: Array<{ msg: string }> } }).data?.detail;
    return `${target.call} would refuse ${JSON.stringify(value).slice(0, 100)} for '${field}': ${detail?.[0]?.msg ?? 'invalid value'}`;
  }
}
