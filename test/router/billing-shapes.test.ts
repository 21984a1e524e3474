// The router's charge and the sandbox's bill are written apart on purpose; for every billing shape of
// the catalog format (blocks of rows, a minimum of units, with and without a billed miss) they agree.
import { describe, expect, it } from 'vitest';
import type { CostRuntime, OperationRuntime } from '../../language/types.ts';
import { chargeMicro } from '../../language/prices.ts';
import { chargeFor } from '../../sandbox/billing.ts';

const cost = (extra: Partial<CostRuntime>): CostRuntime => ({
  type: 'per_result',
  value: 1,
  currency: 'credits',
  per: 1,
  unit: 'row',
  source: 'estimated',
  usd: 0.01,
  ...extra,
});
const op = (c: CostRuntime, bills_miss: boolean) => ({ endpoint_id: 'x.y', cost: c, price_micro: 10_000, bills_miss }) as OperationRuntime;

const shapes: Array<[string, CostRuntime, boolean]> = [
  ['per row', cost({}), false],
  ['per block of 10 rows', cost({ rows_per_unit: 10 }), false],
  ['per row, at least 1 unit, a billed miss', cost({ min_units: 1 }), true],
  ['per block of 25 rows, at least 2 units, a billed miss', cost({ rows_per_unit: 25, min_units: 2 }), true],
  ['per block of 25 rows, at least 2 units, a free miss', cost({ rows_per_unit: 25, min_units: 2 }), false],
];

describe.each(shapes)('%s', (_name, c, billsMiss) => {
  it('router charge == sandbox bill, for hits of 1 to 60 rows and for a miss', () => {
    const o = op(c, billsMiss);
    for (let rows = 1; rows <= 60; rows++) expect(chargeMicro(o, 'hit', rows), `${rows} rows`).toBe(chargeFor(o, 'hit', rows)?.micro ?? 0);
    expect(chargeMicro(o, 'miss', 0)).toBe(chargeFor(o, 'miss', 0)?.micro ?? 0);
  });
});

it('blocks and minimums bill what the provider pages describe', () => {
  const block = op(cost({ rows_per_unit: 10 }), false);
  expect([1, 10, 11, 52].map((r) => chargeMicro(block, 'hit', r))).toEqual([10_000, 10_000, 20_000, 60_000]);
  const minimum = op(cost({ min_units: 1 }), true);
  expect([chargeMicro(minimum, 'miss', 0), chargeMicro(minimum, 'hit', 3)]).toEqual([10_000, 30_000]);
});

it('a contract miss the provider bills (bills_contract_miss) pays what an answered call with no rows pays', () => {
  const flagged = (c: CostRuntime) => ({ ...op(c, false), bills_contract_miss: true as const });
  const perCall = cost({ type: 'per_call', unit: 'call' });
  expect([chargeMicro(flagged(perCall), 'contract_miss', 0), chargeMicro(flagged(perCall), 'miss', 0)]).toEqual([10_000, 0]);
  expect(chargeMicro(flagged(cost({ rows_per_unit: 25, min_units: 2 })), 'contract_miss', 0)).toBe(20_000);
  // without the flag a contract miss is a miss; a billed miss covers it either way
  expect(chargeMicro(op(perCall, false), 'contract_miss', 0)).toBe(0);
  expect(chargeMicro(op(perCall, true), 'contract_miss', 0)).toBe(10_000);
});
