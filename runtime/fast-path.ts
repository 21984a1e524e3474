// Node-level fast paths for the two hottest requests, each answering exactly what its h3 route
// would (same handler or same bytes); anything they do not take goes to the app.
import type { AppContext } from './context.ts';
import { fastEntries, type NodeFastPath } from './fast/entries.ts';
import { fastRouted } from './fast/routed.ts';

export type { NodeFastPath } from './fast/entries.ts';

export function fastPath(ctx: AppContext): NodeFastPath {
  const paths = [fastEntries(ctx), fastRouted(ctx)];
  return (req, res) => paths.some((take) => take(req, res));
}
