// USD ceilings as route headers give them: any non-negative decimal a JSON or JavaScript reader
// takes, rounded down to whole micro-USD in exact integers; null for the rest.
import { describe, expect, it } from 'vitest';
import { parseUsdCeiling } from '../../runtime/state/money.ts';

describe('parseUsdCeiling', () => {
  it.each([
    ['0.25', 250_000],
    ['2.50', 2_500_000],
    ['.5', 500_000],
    ['1.', 1_000_000],
    ['0', 0],
    [' 0.25 ', 250_000],
    ['0.0000001', 0],
    ['0.0000019', 1],
    ['1e-7', 0],
    ['1e-6', 1],
    ['1e9', 1_000_000_000_000_000],
    ['1E3', 1_000_000_000],
    ['9007199254.740991', Number.MAX_SAFE_INTEGER],
    [`0.${'0'.repeat(500)}1`, 0],
    [`1${'0'.repeat(600)}e-597`, 1_000_000_000],
  ])('%s is %d micro-USD', (text, micro) => expect(parseUsdCeiling(text)).toBe(micro));

  it.each(['', '.', 'e5', '-1', '-0.5', 'abc', '0x10', 'Infinity', 'NaN', '1,5', '0.5 USD', '9007199254.740992', '1e10', '1e999999'])(
    '%j is not a ceiling',
    (text) => {
      expect(parseUsdCeiling(text)).toBeNull();
    },
  );
});
