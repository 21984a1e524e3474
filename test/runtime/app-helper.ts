// An app over the fixture catalog with in-memory state, for route tests through app.fetch.
import type { H3 } from 'h3';
import type { State } from '../../runtime/state/index.ts';
import { testRuntime } from '../helpers/server.ts';
import { FIXTURE_DIST } from '../helpers/paths.ts';

export const ADMIN = 'admin-secret-for-tests';

export async function testApp(
  env: Record<string, string> = {},
): Promise<{ app: H3; state: State; call: (path: string, init?: RequestInit) => Promise<Response> }> {
  const { app, ctx } = await testRuntime(FIXTURE_DIST, { SVC_ADMIN_TOKEN: ADMIN, ...env });
  const { state } = ctx;
  const call = async (path: string, init: RequestInit = {}) => app.fetch(new Request(`http://svc.test${path}`, init));
  return { app, state, call };
}

export function jsonInit(method: string, body: unknown, headers: Record<string, string> = {}): RequestInit {
  return { method, headers: { 'content-type': 'application/json', ...headers }, body: typeof body === 'string' ? body : JSON.stringify(body) };
}
