// The provider sandbox's public face: createSandbox(catalog, opts) and startSandbox(sandbox, port).
import { fetchHandler } from './fetch.ts';
import { createSandboxCore, type Sandbox } from './sandbox.ts';
import type { SandboxCatalog, SandboxOptions } from './types.ts';

export interface SandboxApp extends Sandbox {
  /** the whole sandbox as a fetch handler (Request -> Response) */
  fetch: (request: Request) => Promise<Response>;
}

export function createSandbox(catalog: SandboxCatalog, opts: SandboxOptions): SandboxApp {
  const core = createSandboxCore(catalog, opts);
  return { ...core, fetch: fetchHandler(core) };
}

export { startSandbox, type RunningSandbox } from './server.ts';
export { sandboxFaults, sandboxKeys, sandboxOptionsFromEnv, settingOrExit } from './env.ts';
export type { BillingCounts, SandboxCatalog, SandboxOptions } from './types.ts';
export { loadSandboxCatalog } from './catalog.ts';
export type { Sandbox } from './sandbox.ts';
