// Node's GC trace (`--trace-gc-nvp`) read and added up, for the tests and for bench/routed-heap.ts:
// how long objects live, read from the collector rather than from a clock.
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

export interface GcTotals {
  /** bytes allocated */
  allocated: number;
  /** bytes moved to the old generation */
  promoted: number;
  /** the collector's pauses of the main thread, in ms */
  pauseMs: number;
  young: number;
  full: number;
}

/** what the collections traced in `trace` add up to */
export function gcTotals(trace: string): GcTotals {
  const sum: GcTotals = { allocated: 0, promoted: 0, pauseMs: 0, young: 0, full: 0 };
  for (const line of trace.split('\n')) {
    const kind = / gc=(\w+)/.exec(line)?.[1];
    if (!kind) continue;
    const field = (name: string) => Number(new RegExp(` ${name}=([\\d.]+)`).exec(line)?.[1] ?? 0);
    sum.allocated += field('allocated');
    sum.promoted += field('promoted');
    sum.pauseMs += field('pause');
    if (kind === 's') sum.young++;
    else sum.full++;
  }
  return sum;
}

/** bytes the collections of `test/fixtures/<fixture>` moved to the old generation; the fixture prints `done true` when it ran through */
export function promotedBytes(fixture: string, args: string[]): number {
  const script = join(import.meta.dirname, '..', 'fixtures', fixture);
  const trace = execFileSync(process.execPath, ['--trace-gc-nvp', '--import', 'tsx', script, ...args], { encoding: 'utf8' });
  if (!trace.includes('done true')) throw new Error(`${fixture} did not run through:\n${trace.slice(-2000)}`);
  return gcTotals(trace).promoted;
}
