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
  const pair = auth.in === 'basic' || auth.exchange !== undefined || [auth, ...(auth.also ?? [])].some((p) => p.part !== undefined);
  return pair ? `sandbox-${service}:${tag}` : `sk_sandbox_${service}_${tag}`;
}

export function sandboxKeys(runtime: RuntimeCatalog, env: NodeJS.ProcessEnv = process.env): KeyChoice {
  const keys: Record<string, string> = {};
  const madeUp: string[] = [];
  for (const [service, p] of Object.entries(runtime.providers)) {
    const given = platformKey(p, env);
    if (given) keys[service] = given;
    else {
      keys[service] = madeUpKey(runtime, service);
      madeUp.push(service);
    }
  }
  return { keys, madeUp };
}

export class SandboxSettingError extends Error {}

/** SVC_SANDBOX_FAULT_RATE (0..1, default 0) and SVC_SANDBOX_SEED (a whole number, default 1): a value
 * they do not take is an error naming it, so a soak test never runs quietly without its faults. */
export function sandboxFaults(env: NodeJS.ProcessEnv = process.env): { faultRate: number; seed: number } {
  const rate = env.SVC_SANDBOX_FAULT_RATE?.trim() || '0';
  const seed = env.SVC_SANDBOX_SEED?.trim() || '1';
  const faultRate = /^(\d+\.?\d*|\.\d+)$/.test(rate) ? Number(rate) : NaN;
  if (!(faultRate >= 0 && faultRate <= 1)) throw new SandboxSettingError(`SVC_SANDBOX_FAULT_RATE=${rate}: expected a share from 0 to 1, such as 0.05`);
  if (!/^\d+$/.test(seed) || !Number.isSafeInteger(Number(seed))) throw new SandboxSettingError(`SVC_SANDBOX_SEED=${seed}: expected a whole number, such as 1`);
  return { faultRate, seed: Number(seed) };
}

/** `read()`, or, for a sandbox setting it does not take, its sentence on stderr as `<who>: …` and exit 2 (a start check) */
export function settingOrExit<T>(who: string, read: () => T): T {
  try {
    return read();
  } catch (e) {
    if (!(e instanceof SandboxSettingError)) throw e;
    process.stderr.write(`${who}: ${e.message}\n`);
    process.exit(2);
  }
}

export function sandboxOptionsFromEnv(runtime: RuntimeCatalog, env: NodeJS.ProcessEnv = process.env): SandboxOptions & KeyChoice {
  return { ...sandboxKeys(runtime, env), ...sandboxFaults(env) };
}
