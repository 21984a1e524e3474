// unstorage driver for the embedded default: one file per key under `base`, written to a temp file,
// fsynced, then renamed over the old one, so a crash (even kill -9 or power loss) leaves either the
// previous or the new record, never a torn one. Keys `a:b:c` live at `base/a/b/c`.
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, rm, unlink } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { defineDriver, type Driver } from 'unstorage';
import { TMP_MARK as TMP, writeAtomically } from '../../util/durable-write.ts';

const DRIVER_NAME = 'durable-fs';

export interface DurableFsOptions {
  base: string;
  /** fsync the directory after a rename so the rename itself survives power loss (default true) */
  syncDir?: boolean;
}

const notFound = (e: NodeJS.ErrnoException) => (e.code === 'ENOENT' || e.code === 'EISDIR' ? null : Promise.reject(e));

async function listFiles(dir: string, prefix: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true }).catch(notFound);
  if (!entries) return [];
  const nested = await Promise.all(
    entries.map((e) => {
      if (e.isDirectory()) return listFiles(join(dir, e.name), `${prefix}${e.name}:`);
      return e.name.includes(TMP) ? [] : [`${prefix}${e.name}`];
    }),
  );
  return nested.flat();
}

export const durableFs = defineDriver((opts: DurableFsOptions): Driver => {
  if (!opts?.base) throw new Error(`[unstorage] [${DRIVER_NAME}] option 'base' is required`);
  const base = resolve(opts.base);
  const syncDirs = opts.syncDir ?? true;
  const path = (key: string) => {
    const parts = key.split(':');
    if (parts.some((p) => p === '..' || p === '.' || p.includes('/') || p.includes('\\') || p.includes(TMP))) {
      throw new Error(`[unstorage] [${DRIVER_NAME}] invalid key ${JSON.stringify(key)}`);
    }
    return join(base, ...parts);
  };

  async function write(key: string, data: string | Uint8Array): Promise<void> {
    const target = path(key);
    const dir = dirname(target);
    if (!existsSync(dir)) await mkdir(dir, { recursive: true });
    await writeAtomically(target, data, syncDirs);
  }

  return {
    name: DRIVER_NAME,
    options: opts,
    hasItem: (key) => existsSync(path(key)),
    getItem: (key) => readFile(path(key), 'utf8').catch(notFound),
    getItemRaw: (key) => readFile(path(key)).catch(notFound),
    setItem: (key, value) => write(key, value),
    setItemRaw: (key, value: Uint8Array) => write(key, value),
    removeItem: async (key) => {
      await unlink(path(key)).catch(notFound);
    },
    getKeys: (prefix) => {
      const at = (prefix ?? '').replace(/:+$/, '');
      return at ? listFiles(path(at), `${at}:`) : listFiles(base, '');
    },
    clear: async () => {
      await rm(base, { recursive: true, force: true });
    },
  };
});
