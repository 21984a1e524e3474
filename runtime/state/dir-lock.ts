// The embedded store has one writer. The lock is a listening Unix socket named from the data
// directory's real path: bound means held, and the kernel closes it when its holder dies, however it
// dies (kill -9 included), so a restart right after a crash is never refused. A pid file could not
// tell a dead holder from a zombie, or from an unrelated process that got its pid later.
// On Linux the socket lives in the abstract namespace (no file, nothing left behind); elsewhere it is
// a socket file in the directory, and a name nobody answers on is a dead holder's, taken over.
// Opening the same directory twice in one process (tests, the CLI's restart checks) shares the lock;
// it goes with the last release. The holder answers a connection with its pid, for the refusal.
import { rmSync, realpathSync, mkdirSync } from 'node:fs';
import { connect, createServer, type Server } from 'node:net';
import { join, resolve } from 'node:path';
import { sha256 } from './secrets.ts';

/** the pid file the last release wrote: never read now, removed when the lock is taken */
export const OLD_LOCK_FILE = 'svc.lock';
/** the socket file where there is no abstract namespace */
export const LOCK_SOCKET = 'svc.lock.sock';

export type LockPlace = 'abstract' | 'file';
const DEFAULT_PLACE: LockPlace = process.platform === 'linux' ? 'abstract' : 'file';

/** Another live process holds the directory: the start stops with this sentence. */
export class DataDirLocked extends Error {
  constructor(
    readonly dir: string,
    readonly pid: number | null,
  ) {
    super(`data directory ${dir} is in use by another svc process${pid ? ` (pid ${pid})` : ''}; stop that process, or give this one its own SVC_DATA_DIR.`);
  }
}

/** the locks this process holds (or is taking), by real path, with how many opened each */
const held = new Map<string, { count: number; server: Promise<Server> }>();
/** locks this process released whose sockets are still closing: a new take of the directory waits for the close, else it would find its own old lock */
const closing = new Map<string, Promise<void>>();

/** where the lock of a directory (its real path) is bound */
export function lockAddress(realDir: string, place: LockPlace = DEFAULT_PLACE): string {
  return place === 'abstract' ? `\0svc-data-dir-${sha256(realDir)}` : join(realDir, LOCK_SOCKET);
}

function bind(address: string): Promise<Server | NodeJS.ErrnoException> {
  return new Promise((done) => {
    // each connection (a refused starter asking who holds it) is told our pid and closed
    const server = createServer((socket) => socket.end(`${process.pid}\n`));
    server.once('error', (e: NodeJS.ErrnoException) => done(e));
    server.listen({ path: address }, () => {
      server.unref(); // the lock never keeps the process alive
      done(server);
    });
  });
}

/** the pid the holder answers; null when nobody answers (a dead holder's socket file) */
function ask(address: string): Promise<{ pid: number | null; answered: boolean }> {
  return new Promise((done) => {
    let text = '';
    const socket = connect({ path: address });
    socket.setTimeout(2000, () => socket.destroy());
    socket.on('data', (d: Buffer) => {
      text += d.toString();
    });
    socket.on('close', () => {
      const pid = Number(text.trim());
      done({ pid: Number.isSafeInteger(pid) && pid > 0 ? pid : null, answered: text.length > 0 });
    });
    socket.on('error', (e: NodeJS.ErrnoException) => done({ pid: null, answered: e.code !== 'ECONNREFUSED' && e.code !== 'ENOENT' }));
  });
}

/** Take the lock of `dir` for this process (rejects with DataDirLocked); answers its release. */
export async function lockDataDir(dir: string, place: LockPlace = DEFAULT_PLACE): Promise<() => void> {
  mkdirSync(resolve(dir), { recursive: true });
  const real = realpathSync(resolve(dir));
  let mine = held.get(real);
  if (mine) mine.count++;
  else {
    const before = closing.get(real);
    mine = { count: 1, server: before ? before.then(() => take(real, place)) : take(real, place) };
    held.set(real, mine);
  }
  const entry = mine;
  try {
    await entry.server;
  } catch (e) {
    if (held.get(real) === entry) held.delete(real);
    throw e;
  }
  let released = false;
  return () => {
    if (released) return;
    released = true;
    if (--entry.count > 0) return;
    held.delete(real);
    // a socket file is unlinked by close
    const closed = entry.server.then((server) => new Promise<void>((done) => server.close(() => done())));
    closing.set(real, closed);
    void closed.then(() => {
      if (closing.get(real) === closed) closing.delete(real);
    });
  };
}

async function take(real: string, place: LockPlace): Promise<Server> {
  const address = lockAddress(real, place);
  for (let tries = 0; ; tries++) {
    const bound = await bind(address);
    if (!(bound instanceof Error)) {
      rmSync(join(real, OLD_LOCK_FILE), { force: true });
      return bound;
    }
    if (bound.code !== 'EADDRINUSE') throw bound;
    const holder = await ask(address);
    // a socket file nobody listens on is what a dead holder leaves: remove it and bind again
    if (place === 'file' && !holder.answered && tries === 0) {
      rmSync(address, { force: true });
      continue;
    }
    throw new DataDirLocked(real, holder.pid);
  }
}
