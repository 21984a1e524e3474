// Writes that survive a crash or power loss whole or not at all: a temp file beside the target,
// fsynced, renamed over it, and the directory fsynced so the rename itself is kept.
import { randomBytes } from 'node:crypto';
import { open, rename, unlink } from 'node:fs/promises';
import { dirname } from 'node:path';

/** marks a temp file: never a key, never listed */
export const TMP_MARK = '.tmp-';

/** fsync a directory, so its entries (a rename, a new file) survive power loss */
export async function syncDir(path: string): Promise<void> {
  const handle = await open(path, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** `target` holds `data` afterwards, or (after a crash) what it held before */
export async function writeAtomically(target: string, data: string | Uint8Array, syncDirectory = true): Promise<void> {
  const tmp = `${target}${TMP_MARK}${process.pid}-${randomBytes(6).toString('hex')}`;
  const handle = await open(tmp, 'w');
  try {
    await handle.writeFile(data);
    await handle.sync();
  } finally {
    await handle.close();
  }
  await rename(tmp, target).catch(async (e) => {
    await unlink(tmp).catch(() => {});
    throw e;
  });
  if (syncDirectory) await syncDir(dirname(target));
}
