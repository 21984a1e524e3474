// An operation as the runtime catalog holds it, for tests of the router's parts: a plain GET that
// costs nothing, bills no miss and checks nothing, with what the test is about laid over it.
import type { OperationRuntime } from '../../language/types.ts';

export const operation = (over: Partial<OperationRuntime> = {}): OperationRuntime => ({
  endpoint_id: 'acme.x',
  provider: 'acme',
  method: 'GET',
  path: '/',
  input: {},
  cost: null,
  price_micro: 0,
  bills_miss: false,
  miss: null,
  async: null,
  platform_eligible: true,
  body_allowlist: false,
  strict_query: false,
  strict_body: false,
  returns: null,
  ...over,
});
