// The environment that points every catalog provider at a running sandbox with its platform key:
// SVC_BASE_<SERVICE> and the provider's auth.env variable. Used by `npm run demo` and the tests.
import type { RuntimeCatalog } from '../language/types.ts';

export function sandboxEnv(runtime: RuntimeCatalog, sandboxUrl: string, keys: Record<string, string>): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [service, p] of Object.entries(runtime.providers)) {
    env[`SVC_BASE_${service.toUpperCase()}`] = `${sandboxUrl}/${service}`;
    env[p.auth.env] = keys[service];
  }
  return env;
}
