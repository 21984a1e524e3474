// What `npm start` and `npm run demo` share around the app: a start refused in one sentence with a
// non-zero exit, and a stop on SIGTERM/SIGINT that lets calls in flight finish first.
import { ConfigError } from '../config/config.ts';
import { PortTaken, type RunningServer } from '../http/server.ts';
import { DataDirLocked } from '../state/dir-lock.ts';
import { StorageUnavailable } from '../state/unavailable.ts';

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

/** how often a process started by an npm script looks whether its parent is still there */
const PARENT_CHECK_MS = 500;

/**
 * On SIGTERM or SIGINT: stop accepting, let the calls in flight finish (at most `drainMs`), then run
 * `closers` (the ledger's flush, the lock's release) and exit 0. A second signal ends it at once,
 * through process.exit, so exit hooks (the demo's removal of its fresh directory) still run.
 *
 * Started by an npm script (`npm start`, `npm run demo`), the process stops the same way when its
 * parent goes: npm passes a SIGTERM to the shell that runs the script, and the shell dies without
 * passing it on, which left the server serving and holding its lock. A process started otherwise
 * (`nohup node dist-server/start.js &`, a service manager) outlives its parent as before.
 */
export function stopOnSignals(server: RunningServer, drainMs: number, closers: Array<() => Promise<void>>): void {
  let stopping = false;
  const stop = async (why: string) => {
    if (stopping) return;
    stopping = true;
    process.stderr.write(`svc: ${why}: finishing calls in flight (up to ${drainMs} ms), then stopping\n`);
    const unfinished = await server.drain(drainMs);
    if (unfinished > 0) process.stderr.write(`svc: ${unfinished} request(s) still running after ${drainMs} ms were cut off\n`);
    for (const close of closers) await close().catch((e: unknown) => process.stderr.write(`svc: while stopping: ${String(e)}\n`));
    process.exit(0);
  };
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      if (!stopping) return void stop(signal);
      process.stderr.write(`svc: ${signal} again: stopping at once\n`);
      process.exit(signal === 'SIGINT' ? 130 : 143);
    });
  }
  if (process.env.npm_lifecycle_event) {
    const parent = process.ppid;
    setInterval(() => {
      if (process.ppid !== parent) void stop('the npm script that started svc has ended');
    }, PARENT_CHECK_MS).unref();
  }
}
