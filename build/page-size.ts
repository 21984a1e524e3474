// The bound of a pass-through call's rows for a per_result operation: declared in `page_size`, or
// read off what the YAML already says (the parameter a routed child sends its limit in, that
// parameter's default and max, the response's max_rows). The validator refuses a per_result
// operation whose bound this cannot find; the pass-through holds price × that bound before calling.
import type { OperationSrc, PageSizeSrc, ParamSrc } from '../language/types.ts';

/** The declaration of `query.<name>` or `body.<path>` (body parameters are declared by their path). */
export function declaredParam(op: OperationSrc, param: string): ParamSrc | undefined {
  if (param.startsWith('query.')) return op.input.queryParams?.[param.slice('query.'.length)];
  const path = param.slice('body'.length).replace(/^\./, '');
  return op.input.body?.[path];
}

const count = (v: unknown): number | undefined => (typeof v === 'number' && Number.isInteger(v) && v > 0 ? v : undefined);

export function resolvePageSize(op: OperationSrc): PageSizeSrc | undefined {
  if (op.cost?.type !== 'per_result') return undefined;
  const limitTo = op.request?.map.find((m) => m.from === 'limit')?.to;
  const param = op.page_size?.param ?? (limitTo && /^(query|body)[.[]/.test(limitTo) ? limitTo : undefined);
  const declared = param ? declaredParam(op, param) : undefined;
  const def = op.page_size?.default ?? count(declared?.default);
  const max = op.page_size?.max ?? count(declared?.max) ?? op.response?.max_rows;
  const rows = op.page_size?.rows;
  return { ...(param ? { param } : {}), ...(def !== undefined ? { default: def } : {}), ...(max !== undefined ? { max } : {}), ...(rows ? { rows } : {}) };
}
