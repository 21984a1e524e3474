// One routed call from the outside in, independent of the HTTP layer: which capability, the request
// headers and a way to read the body. The h3 route and the Node fast path both answer through this.
import type { AppContext } from '../context.ts';
import { fail } from '../errors.ts';
import { teamFor, type Credentials } from '../auth.ts';
import { parseRouteOptions, type HeaderReader } from './options.ts';

export interface RoutedHttpAnswer {
  status: number;
  headers: Record<string, string>;
  text: string;
}

export async function handleRouted(
  ctx: AppContext, capability: string, headers: HeaderReader, credentials: Credentials, readBody: () => Promise<unknown>,
): Promise<RoutedHttpAnswer> {
  // the credential first: every call under the proxy prefix needs one, known capability or not
  const team = await teamFor(ctx.state, credentials);
  if (!ctx.router.isCapability(capability)) fail(404, `No routed capability '${capability}'. GET /catalog/platforms lists them.`);
  const options = parseRouteOptions(headers);
  const body = await readBody();
  return ctx.router.call(team, capability, body ?? {}, options);
}
