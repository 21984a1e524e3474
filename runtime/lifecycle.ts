// What `npm start` and `npm run demo` share around the app: a start refused in one sentence with a
// non-zero exit, and a stop on SIGTERM/SIGINT that lets calls in flight finish first.
import { ConfigError } from './config.ts';
import { PortTaken, type RunningServer } from './server.ts';
import { DataDirLocked } from './state/dir-lock.ts';
import { StorageUnavailable } from './state/unavailable.ts';

/** Await a start step; a refusal the operator can act on ends the process with its sentence. */
export async function orRefuse<T>(step: Promise<T>): Promise<T> {
  try {
    return await step;
  } catch (e) {
    if (!(e instanceof ConfigError || e instanceof PortTaken || e instanceof DataDirLocked || e instanceof StorageUnavailable)) throw e;
    process.stderr.write(`svc: ${e.message}\n`);
    process.exit(e instanceof ConfigError ? 2 : 1);
  }
}

/**
 * On SIGTERM or SIGINT: stop accepting, let the calls in flight finish (at most `drainMs`), then run
 * `closers` (the ledger's flush, the lock's release) and exit 0. A second signal ends it at once.
 */
export function stopOnSignals(server: RunningServer, drainMs: number, closers: Array<() => Promise<void>>): void {
  const stop = async (signal: string) => {
    process.stderr.write(`svc: ${signal}: finishing calls in flight (up to ${drainMs} ms), then stopping\n`);
    const unfinished = await server.drain(drainMs);
    if (unfinished > 0) process.stderr.write(`svc: ${unfinished} request(s) still running after ${drainMs} ms were cut off\n`);
    for (const close of closers) await close().catch((e: unknown) => process.stderr.write(`svc: while stopping: ${String(e)}\n`));
    process.exit(0);
  };
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => void stop(signal));
}
