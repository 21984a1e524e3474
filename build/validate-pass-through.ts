// The build's checks of what a call's charge relies on: a price svc keeps exactly, a per_result
// operation's bound on the rows one pass-through call may be billed for (so its cost is held before
// it runs), and no two operations of one provider and method with paths that tie (so a pass-through
// path is one operation, charged as that one).
import type { SourceFile } from './load.ts';
import type { OperationSrc, ProviderSrc, SourcePos } from '../language/types.ts';
import type { BuildError } from './build-error.ts';
import { declaredParam, resolvePageSize } from './page-size.ts';
import { platformEligible, priceMicro } from './resolve-endpoint.ts';
import { compileTemplate, tie, type PathTemplate } from '../language/paths.ts';

/** A price whose micro-USD is a safe integer; a per_result operation's bound on its rows (see page-size.ts). */
export function chargeErrors(op: OperationSrc, at: (...path: Array<string | number>) => SourcePos, provider: ProviderSrc): BuildError[] {
  const errs: BuildError[] = [];
  const err = (message: string, ...path: Array<string | number>) => errs.push({ pos: at(...path), provider: provider.service, message });
  if (!Number.isSafeInteger(priceMicro(op.cost)))
    err(`cost.usd ${op.cost?.usd}: not a whole number of micro-USD that svc can keep exactly (at most ${Number.MAX_SAFE_INTEGER})`, 'cost', 'usd');
  if (op.page_size && op.cost?.type !== 'per_result') err('page_size only applies to per_result pricing', 'page_size');
  const param = op.page_size?.param;
  // `body.pages.size` is declared by `pages` too; `body` alone is the whole body (a bare list)
  const within = param ? param.split(/(?=[.[])/).map((_, i, parts) => parts.slice(0, i + 1).join('')) : [];
  if (param && param !== 'body' && !within.some((p) => declaredParam(op, p)))
    err(`page_size.param '${param}': not a declared parameter (input.queryParams or input.body)`, 'page_size', 'param');
  // an own key costs the balance nothing, so only a platform-key call needs the bound
  const bound = resolvePageSize(op);
  const platform = platformEligible(op, provider);
  // a price nobody knows is charged as 0 while the provider bills svc's account whatever it bills
  if (op.cost && op.cost.type !== 'free' && op.cost.usd === null && platform) {
    err(
      "cost.usd is null (unknown): a platform-key call would be charged 0 while the provider bills svc; set platform_eligible: false (the team's own key only) or a price",
      'cost',
      'usd',
    );
  }
  if (bound && platform && !bound.param && bound.default === undefined && bound.max === undefined) {
    err('per_result pricing needs a bound on the rows one call is billed for: page_size {param, default, max}, or platform_eligible: false', 'cost', 'type');
  }
  return errs;
}

/** Operations of one provider and method whose paths tie: one path could match either, neither more specific. */
export function pathTies(p: SourceFile<ProviderSrc>): BuildError[] {
  const errs: BuildError[] = [];
  const seen: Array<{ method: string; template: PathTemplate; i: number }> = [];
  p.data.operations.forEach((op, i) => {
    const template = compileTemplate(op.path);
    const twin = seen.find((o) => o.method === op.method && tie(o.template, template));
    if (twin) {
      const first = p.pos(['operations', twin.i, 'path']);
      errs.push({
        pos: p.pos(['operations', i, 'path']),
        provider: p.data.service,
        message: `${op.method} ${op.path} and ${p.data.operations[twin.i].path} (at ${first.file}:${first.line}) can match one path with neither more specific; a pass-through call could not tell them apart`,
      });
    }
    seen.push({ method: op.method, template, i });
  });
  return errs;
}
