// Hash of everything a build reads (catalog-src/ and the build code), so `npm start` can tell stale.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

function files(dir: string): string[] {
  return readdirSync(dir).sort().flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? files(p) : [p];
  });
}

export function sourceHash(dirs: string[]): string {
  const h = createHash('sha256');
  for (const dir of dirs) for (const f of files(dir)) h.update(f).update('\0').update(readFileSync(f)).update('\0');
  return h.digest('hex').slice(0, 16);
}
