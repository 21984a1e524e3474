// Route headers on a hub run. A run is a whole pipeline, so only the headers that mean something for
// all of it apply: the dry run (the plan and the worst cost, nothing called or charged) and the
// ceiling (steps plus the tool's price). Every other route header is a 422 naming it, never ignored:
// a caller who sent X-Svc-Route-Exclude or a deadline meant something the run would not do.
import { invalid } from '../util/fail.ts';
import { ROUTE_HEADERS } from '../../language/route-options.ts';
import { parseRouteOptions, type HeaderReader } from '../router/options.ts';
import type { Gone } from '../router/outcome.ts';

export interface RunOptions {
  dryRun: boolean;
  /** X-Svc-Route-Max-Cost in micro-USD when sent: the whole run's steps plus its price */
  maxCostMicro: number | null;
  /** whether the caller has left: a routed step then tries no further child, and the run ends there */
  gone?: Gone;
}

const APPLYING = new Set(['X-Svc-Route-Max-Cost', 'X-Svc-Route-Dry-Run']);
const NOT_APPLYING = ROUTE_HEADERS.filter((h) => !APPLYING.has(h));

export function runOptions(headers: HeaderReader): RunOptions {
  // unknown and malformed route headers: the routed call's 422s
  const o = parseRouteOptions(headers);
  const sent = NOT_APPLYING.filter((h) => headers.get(h.toLowerCase()) !== null);
  if (sent.length) {
    invalid(
      sent.map((h) => ({
        loc: ['header', h],
        type: 'value_error.not_applicable',
        msg: `${h} does not apply to a hub run: its steps run as the tool's maker wrote them. A run takes X-Svc-Route-Max-Cost (steps plus price) and X-Svc-Route-Dry-Run; drop ${h}.`,
      })),
    );
  }
  return { dryRun: o.dryRun, maxCostMicro: headers.get('x-svc-route-max-cost') === null ? null : o.maxCostMicro };
}
