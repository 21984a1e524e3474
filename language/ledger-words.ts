// A ledger charge's two figures in words, the same on the dashboard's account page and in
// `svc me ledger`: what the provider said it charged (as it said it, and in money) and the
// catalog's list price, so a row billed other than its list price says why.

/** the figures a charge row carries where the provider stated its charge (GET /teams/me/ledger) */
export interface ChargeFigures {
  /** the row's amount (negative for a charge): less than the report when the call's ceiling or the balance capped it */
  amount_micro?: number;
  list_micro?: number;
  reported_micro?: number;
  reported_value?: number;
  reported_unit?: string;
}

/** `credits` of 1 reads `1 credit`; `searches`, `1 search` */
const unitFor = (value: number, unit: string): string => (value !== 1 ? unit : /(ch|sh|ss|x)es$/.test(unit) ? unit.slice(0, -2) : unit.replace(/s$/, ''));

/**
 * `reported 3 credits = $0.03; list $0.01` (a USD figure is money already: `reported $0.0155; list
 * $0.002`), `; capped at $1.00` added when the row billed less than the report, or null for a row
 * that carries no reported figure.
 */
export function reportedWords(row: ChargeFigures, money: (micro: number) => string): string | null {
  const { list_micro, reported_micro, reported_value, reported_unit } = row;
  if (list_micro === undefined || reported_micro === undefined || reported_value === undefined || !reported_unit) return null;
  const stated =
    reported_unit.toLowerCase() === 'usd' ? money(reported_micro) : `${reported_value} ${unitFor(reported_value, reported_unit)} = ${money(reported_micro)}`;
  const billed = row.amount_micro === undefined ? reported_micro : Math.abs(row.amount_micro);
  return `reported ${stated}; list ${money(list_micro)}${billed < reported_micro ? `; capped at ${money(billed)}` : ''}`;
}
