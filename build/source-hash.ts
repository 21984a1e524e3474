// Hash of everything a build reads (catalog-src/ and the code that shapes its output), so `npm start`
// can tell a stale build. Names are hashed relative to their input, so moving the checkout changes nothing.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

function files(path: string): string[] {
  if (!statSync(path).isDirectory()) return [path];
  return readdirSync(path).sort().flatMap((f) => files(join(path, f)));
}

/** `inputs`: directories or single files */
export function sourceHash(inputs: string[]): string {
  const h = createHash('sha256');
  inputs.forEach((input, i) => {
    for (const f of files(input)) h.update(`${i}:${relative(input, f)}`).update('\0').update(readFileSync(f)).update('\0');
  });
  return h.digest('hex').slice(0, 16);
}
