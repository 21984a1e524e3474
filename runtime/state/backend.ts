// Which storage backs state, from SVC_STORAGE: unset → durable files under SVC_DATA_DIR; `memory:` →
// in-process maps (tests); `redis://…` → reserved for the multi-instance backend (a driver plus an
// Atomics implementation over INCR/Lua), refused until it exists.
import { createStorage, type Storage } from 'unstorage';
import memoryDriver from 'unstorage/drivers/memory';
import { durableFs } from './drivers/durable-fs.ts';
import { LocalAtomics } from './atomics-local.ts';
import type { Atomics } from './atomics.ts';

export interface Backend {
  kind: 'fs' | 'memory';
  storage: Storage;
  atomics: Atomics;
  /** whether records survive a restart */
  durable: boolean;
  /** whether this process is the only writer, so records may be cached in memory */
  exclusive: boolean;
}

export function openBackend(storage: string | null, dataDir: string): Backend {
  const spec = storage?.trim() || '';
  if (spec === 'memory:' || spec === 'memory') {
    const s = createStorage({ driver: memoryDriver() });
    return { kind: 'memory', storage: s, atomics: new LocalAtomics(s), durable: false, exclusive: true };
  }
  if (spec === '' || spec.startsWith('fs:') || spec.startsWith('file:')) {
    const base = spec.replace(/^(fs|file):(\/\/)?/, '') || dataDir;
    const s = createStorage({ driver: durableFs({ base }) });
    return { kind: 'fs', storage: s, atomics: new LocalAtomics(s), durable: true, exclusive: true };
  }
  if (/^rediss?:\/\//.test(spec)) throw new Error(`SVC_STORAGE=${spec.replace(/\/\/[^@/]*@/, '//…@')}: the redis backend is not available in this release; use the default embedded storage or memory:`);
  throw new Error(`SVC_STORAGE=${spec}: unknown backend (use memory:, fs:<dir>, or leave it unset for ${dataDir})`);
}
