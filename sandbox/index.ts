// The provider sandbox's public face: createSandbox(runtime, opts) and startSandbox(sandbox, port).
import type { RuntimeCatalog } from '../language/types.ts';
import { fetchHandler } from './fetch.ts';
import { createSandboxCore, type Sandbox } from './sandbox.ts';
import type { SandboxOptions } from './types.ts';

export interface SandboxApp extends Sandbox {
  /** the whole sandbox as a fetch handler (Request -> Response) */
  fetch: (request: Request) => Promise<Response>;
}

export function createSandbox(runtime: RuntimeCatalog, opts: SandboxOptions): SandboxApp {
  const core = createSandboxCore(runtime, opts);
  return { ...core, fetch: fetchHandler(core) };
}

export { startSandbox, type RunningSandbox } from './server.ts';
export { sandboxFaults, sandboxKeys, sandboxOptionsFromEnv, settingOrExit } from './env.ts';
export type { BillingCounts, SandboxOptions } from './types.ts';
export type { Sandbox } from './sandbox.ts';
