// How many rows a per-result child can bill, and so its worst case: the limit as its request sends
// it (clamped by the mapping's max), else the page size it declares; checked on the real catalog too.
import { describe, expect, it } from 'vitest';
import { billableRows, worstCostMicro } from '../../language/prices.ts';
import { loadRuntime } from '../../runtime/catalog/dist.ts';
import { REAL_DIST } from '../helpers/paths.ts';

const perRow = { cost: { type: 'per_result' as const }, price_micro: 10_000 };

describe('billableRows', () => {
  it('follows the limit the request sends, clamped by the mapping and a declared page size', () => {
    const sends = { ...perRow, request: { map: [{ from: 'q' }, { from: 'limit', max: 50 }] } };
    expect(billableRows(sends, 10)).toBe(10);
    expect(billableRows(sends, 80)).toBe(50);
    expect(billableRows({ ...sends, response: { max_rows: 25 } }, 40)).toBe(25);
  });

  it('is the declared page size when the request does not send the limit', () => {
    const fixed = { ...perRow, request: { map: [{ from: 'domain' }] }, response: { max_rows: 25 } };
    expect(billableRows(fixed, 1)).toBe(25);
    expect(worstCostMicro(fixed, 1)).toBe(250_000);
    expect(worstCostMicro({ ...fixed, cost: { type: 'per_call' as const } }, 1)).toBe(10_000);
  });
});

it('every routed per-result child of the real catalog has a known worst case, at least its rows asked', () => {
  const runtime = loadRuntime(REAL_DIST);
  const similar = runtime.operations['companyenrich.companies.similar'];
  expect(worstCostMicro(similar, 1)).toBe(25 * similar.price_micro);
  for (const op of Object.values(runtime.operations)) {
    if (op.cost?.type !== 'per_result' || !op.serves) continue;
    const sendsLimit = op.request!.map.some((m) => m.from === 'limit');
    expect(sendsLimit || op.response!.max_rows !== undefined, op.endpoint_id).toBe(true);
  }
});
