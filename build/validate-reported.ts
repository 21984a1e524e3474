// The build's checks of a provider's stated charges (cost.reported_charge) and of token exchanges
// (auth.exchange): a reported figure must convert at the operation's own price, and an exchanged
// key is one `client_id:client_secret` pair, so no placement may take a part of it.
import type { OperationSrc, ProviderSrc, SourcePos } from '../language/types.ts';
import type { BuildError } from './build-error.ts';

/** an HTTP field name (RFC 9110 token), lower-case as the runtime reads answers' headers */
const HEADER_NAME = /^[a-z0-9!#$%&'*+.^_`|~-]+$/;

/**
 * A reported charge is read from one place, a body path or a header named as the runtime reads it,
 * in USD or in the price's own currency, on a price it can be converted at.
 */
export function reportedChargeErrors(op: OperationSrc, at: (...path: Array<string | number>) => SourcePos, provider: ProviderSrc): BuildError[] {
  const rc = op.cost?.reported_charge;
  if (!rc) return [];
  const err = (message: string): BuildError => ({ pos: at('cost', 'reported_charge'), provider: provider.service, message });
  if ((rc.path === undefined) === (rc.header === undefined))
    return [err('cost.reported_charge: name exactly one of `path` (in the JSON answer) or `header` (a response header)')];
  if (rc.header !== undefined && !HEADER_NAME.test(rc.header))
    return [err(`cost.reported_charge.header '${rc.header}': a header name as a token in lower case (no capitals, spaces or colon)`)];
  const cost = op.cost!;
  if (cost.type === 'free' || cost.usd === null || !(cost.value > 0))
    return [
      err(
        `cost.reported_charge: a ${cost.type} price of ${cost.value} ${cost.currency} (usd ${cost.usd}) gives no price per ${rc.unit} to convert the provider's figure at`,
      ),
    ];
  const unit = rc.unit.toLowerCase();
  if (unit !== 'usd' && unit !== cost.currency.toLowerCase())
    return [
      err(
        `cost.reported_charge.unit '${rc.unit}': neither usd nor the price's currency '${cost.currency}', so svc cannot convert it at the catalog's price per unit`,
      ),
    ];
  return [];
}

/** An exchanged key is a whole client id and secret: a placement taking one part of it would place half a pair. */
export function exchangeErrors(provider: ProviderSrc, pos: SourcePos): BuildError[] {
  const auth = provider.auth;
  if (!auth.exchange || ![auth, ...(auth.also ?? [])].some((p) => p.part !== undefined)) return [];
  return [
    {
      pos,
      provider: provider.service,
      message: 'auth.exchange: the key is exchanged whole (client_id:client_secret) for a token, which is placed whole; drop `part`',
    },
  ];
}
