// USD amounts as people read them, by one rule: a dollar sign, at least two decimals, and more only
// where the micro-USD amount needs them ($0.10, $0.0049, $12.50, $1.00, -$0.02), to the whole
// micro-USD (svc's unit of money). The CLI prints every amount by it, and the texts it prints from
// the catalog and the finder (a sibling's price in an entry's hints, the local judge's reasons) say
// their prices the same way. Integer arithmetic, so no float noise ever shows.

const MICRO_PER_USD = 1_000_000;

/** micro-USD as `$0.10`; `-` for no amount */
export function usdText(micro: number | null | undefined): string {
  if (micro === null || micro === undefined || !Number.isFinite(micro)) return '-';
  const whole = Math.round(micro);
  const abs = Math.abs(whole);
  const decimals = String(abs % MICRO_PER_USD)
    .padStart(6, '0')
    .replace(/0+$/, '')
    .padEnd(2, '0');
  return `${whole < 0 ? '-' : ''}$${Math.floor(abs / MICRO_PER_USD)}.${decimals}`;
}

/** a USD number as the catalog and the API give it (`cost.usd`, `price_usd`), said as its micro-USD amount is */
export const usdTextOf = (usd: number | null | undefined): string => usdText(usd === null || usd === undefined ? usd : usd * MICRO_PER_USD);
