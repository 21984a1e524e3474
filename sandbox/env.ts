// Sandbox settings from the environment: each provider's platform key under the name its YAML gives
// (auth.env, e.g. SVC_KEY_HUNTER; made up when unset), SVC_SANDBOX_FAULT_RATE.
import type { RuntimeCatalog } from '../language/types.ts';
import { hash32 } from './hash.ts';
import { platformKey } from '../language/provider-auth.ts';
import type { SandboxOptions } from './types.ts';

export interface KeyChoice {
  keys: Record<string, string>;
  /** services whose key was made up (their auth.env variable unset) */
  madeUp: string[];
}

/** A key of the right form: `user:secret` where the provider splits or Basic-encodes it. */
function madeUpKey(runtime: RuntimeCatalog, service: string): string {
  const auth = runtime.providers[service].auth;
  const tag = hash32(`svc-sandbox ${service}`).toString(36);
  const pair = auth.in === 'basic' || [auth, ...(auth.also ?? [])].some((p) => p.part !== undefined);
  return pair ? `sandbox-${service}:${tag}` : `sk_sandbox_${service}_${tag}`;
}

export function sandboxKeys(runtime: RuntimeCatalog, env: NodeJS.ProcessEnv = process.env): KeyChoice {
  const keys: Record<string, string> = {};
  const madeUp: string[] = [];
  for (const [service, p] of Object.entries(runtime.providers)) {
    const given = platformKey(p, env);
    if (given) keys[service] = given;
    else { keys[service] = madeUpKey(runtime, service); madeUp.push(service); }
  }
  return { keys, madeUp };
}

export function sandboxOptionsFromEnv(runtime: RuntimeCatalog, env: NodeJS.ProcessEnv = process.env): SandboxOptions & KeyChoice {
  const rate = Number(env.SVC_SANDBOX_FAULT_RATE ?? 0);
  const seed = Number(env.SVC_SANDBOX_SEED ?? 1);
  return {
    ...sandboxKeys(runtime, env),
    faultRate: Number.isFinite(rate) ? Math.min(Math.max(rate, 0), 1) : 0,
    seed: Number.isFinite(seed) ? seed : 1,
  };
}
