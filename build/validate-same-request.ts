// One upstream answer has one billing rule, whatever capability asked for it: two routed children of
// one provider that can send the same request (method, path, and fixed parameters that fit each other)
// must price it, bill its miss and recognise that miss alike, or the router and the provider (and the
// sandbox, which answers as one of them) disagree on what the same answer cost.
import type { OperationSrc, ProviderSrc, SourcePos } from '../language/types.ts';
import type { SourceFile } from './load.ts';
import type { BuildError } from './build-error.ts';

/** Fixed parameters as `query.limit` / `body.a.b` -> value (arrays and scalars are leaves). */
function fixedParams(op: OperationSrc): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (v: unknown, at: string): void => {
    if (v && typeof v === 'object' && !Array.isArray(v)) for (const [k, x] of Object.entries(v)) walk(x, `${at}.${k}`);
    else out.set(at, JSON.stringify(typeof v === 'number' || typeof v === 'boolean' ? String(v) : v));
  };
  for (const [where, v] of Object.entries(op.request?.const ?? {})) walk(v, where);
  return out;
}

/** Can `b` send every parameter `a` fixes, with a's value? (fixed alike, or mapped from a call field) */
function covers(a: OperationSrc, b: OperationSrc): boolean {
  const mine = fixedParams(b);
  const mapped = new Set((b.request?.map ?? []).map((m) => m.to));
  return [...fixedParams(a)].every(([k, v]) => mine.get(k) === v || (!mine.has(k) && mapped.has(k)));
}

/** The parts of the billing rule that differ between two children. */
function differences(a: OperationSrc, b: OperationSrc): string[] {
  const rule = (op: OperationSrc): Record<string, unknown> => ({
    'cost.type': op.cost?.type,
    'cost.usd': op.cost?.usd,
    'cost.rows_per_unit': op.cost?.rows_per_unit ?? 1,
    'cost.min_units': op.cost?.min_units ?? 0,
    bills_miss: op.bills_miss ?? op.cost?.type === 'per_call',
    bills_contract_miss: op.bills_contract_miss ?? false,
    'miss.status': op.miss?.status ?? [],
    'miss.when': op.miss?.when ?? [],
  });
  const ra = rule(a);
  const rb = rule(b);
  return Object.keys(ra).filter((k) => JSON.stringify(ra[k]) !== JSON.stringify(rb[k]));
}

export function sameRequestErrors(p: SourceFile<ProviderSrc>): BuildError[] {
  const errors: BuildError[] = [];
  const children = p.data.operations.map((op, i) => ({ op, i })).filter(({ op }) => op.serves);
  children.forEach((b, j) => {
    for (const a of children.slice(0, j)) {
      if (a.op.method !== b.op.method || a.op.path !== b.op.path || !covers(a.op, b.op) || !covers(b.op, a.op)) continue;
      const diff = differences(a.op, b.op);
      if (!diff.length) continue;
      const first: SourcePos = p.pos(['operations', a.i, 'id']);
      errors.push({
        pos: p.pos(['operations', b.i, 'path']),
        provider: p.data.service,
        message: `${b.op.id} can send the same request as ${a.op.id} (${first.file}:${first.line}), ${b.op.method} ${b.op.path}; one answer has one billing rule, yet they differ in ${diff.join(', ')}`,
      });
      break;
    }
  });
  return errors;
}
