// An app over the fixture catalog with in-memory state, for route tests through app.fetch.
import type { H3 } from 'h3';
import { readConfig } from '../../runtime/config.ts';
import { loadDist } from '../../runtime/catalog/dist.ts';
import { createApp } from '../../runtime/app.ts';
import { createState, type State } from '../../runtime/state/index.ts';
import { createContext } from '../../runtime/context.ts';
import { FIXTURE_DIST } from '../helpers/paths.ts';

export const ADMIN = 'admin-secret-for-tests';

export async function testApp(env: Record<string, string> = {}): Promise<{ app: H3; state: State; call: (path: string, init?: RequestInit) => Promise<Response> }> {
  const config = readConfig({ SVC_STORAGE: 'memory:', SVC_DIST_DIR: FIXTURE_DIST, SVC_SECRET: 'test-secret', SVC_ADMIN_TOKEN: ADMIN, ...env });
  const catalog = loadDist(FIXTURE_DIST, `${config.publicUrl}${config.proxyPrefix}`);
  const state = await createState(config);
  const app = createApp(createContext(config, catalog, state));
  const call = async (path: string, init: RequestInit = {}) => app.fetch(new Request(`http://svc.test${path}`, init));
  return { app, state, call };
}

export function jsonInit(method: string, body: unknown, headers: Record<string, string> = {}): RequestInit {
  return { method, headers: { 'content-type': 'application/json', ...headers }, body: typeof body === 'string' ? body : JSON.stringify(body) };
}
