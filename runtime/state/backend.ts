// Which storage backs state, from SVC_STORAGE: unset → durable files under SVC_DATA_DIR; `memory:` →
// in-process maps (tests; the ledger's chunks kept as they are, ledger-store-memory.ts); `redis://…`
// → Redis shared by several instances (records through the redis driver, everything that must be
// exact through RedisAtomics).
import { createStorage, type Storage } from 'unstorage';
import memoryDriver from 'unstorage/drivers/memory';
import { durableFs } from './drivers/durable-fs.ts';
import { join, resolve } from 'node:path';
import { LocalAtomics } from './atomics-local.ts';
import { RecordLedgerStore } from './ledger-store-records.ts';
import { MemoryLedgerStore } from './ledger-store-memory.ts';
import { SegmentLedgerStore } from './ledger-store-segments.ts';
import type { Atomics } from './atomics.ts';
import { LEDGER_SYNC_MS, type StorageSpec } from '../config/config.ts';
import { lockDataDir } from './dir-lock.ts';

/** the embedded ledger's files, under the data directory */
export const LEDGER_DIR = 'ledger-files';

export interface Backend {
  kind: 'fs' | 'memory' | 'redis';
  storage: Storage;
  atomics: Atomics;
  /** whether records survive a restart */
  durable: boolean;
  /** whether this process is the only writer, so records may be cached in memory */
  exclusive: boolean;
  /** give up the data directory's lock (once; the embedded store is single-writer), or the Redis connection */
  release(): void;
}

export async function openBackend(spec: StorageSpec, dataDir: string): Promise<Backend> {
  // loaded only for Redis: its client is a fifth of a single instance's memory and start time
  if (spec.kind === 'redis') return { kind: 'redis', durable: true, exclusive: false, ...(await (await import('./backend-redis.ts')).openRedis(spec.url)) };
  if (spec.kind === 'memory') {
    const s = createStorage({ driver: memoryDriver() });
    return { kind: 'memory', storage: s, atomics: new LocalAtomics(s, new MemoryLedgerStore()), durable: false, exclusive: true, release: () => {} };
  }
  const base = spec.dir ?? dataDir;
  const unlock = await lockDataDir(base); // rejects with DataDirLocked while another live process holds it
  let released = false;
  const s = createStorage({ driver: durableFs({ base }) });
  // the ledger appends to a file per account; accounts of earlier builds are read from records once
  const ledger = new SegmentLedgerStore(join(resolve(base), LEDGER_DIR), new RecordLedgerStore(s), spec.ledgerSyncMs ?? LEDGER_SYNC_MS);
  return {
    kind: 'fs',
    storage: s,
    atomics: new LocalAtomics(s, ledger),
    durable: true,
    exclusive: true,
    release: () => {
      if (!released) {
        released = true;
        unlock();
      }
    },
  };
}
