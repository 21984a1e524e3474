// Runs a fixture script in its own node under the GC trace and counts what young collections
// promoted: how long objects live, read from the collector rather than from a clock.
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

/** bytes the scavenges of `test/fixtures/<fixture>` moved to the old generation; the fixture prints `done true` when it ran through */
export function promotedBytes(fixture: string, args: string[]): number {
  const script = join(import.meta.dirname, '..', 'fixtures', fixture);
  const trace = execFileSync(process.execPath, ['--trace-gc-nvp', '--import', 'tsx', script, ...args], { encoding: 'utf8' });
  if (!trace.includes('done true')) throw new Error(`${fixture} did not run through:\n${trace.slice(-2000)}`);
  return [...trace.matchAll(/ gc=s .*? promoted=(\d+)/g)].reduce((n, m) => n + Number(m[1]), 0);
}
