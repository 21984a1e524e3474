// One money module: routed, pass-through, batch and hub calls spend a team's money through
// runtime/money/spending.ts alone (hold, charge, release, refund, pay). Any other file of the product
// calling the state's money primitives (state.charge, state.earn, state.credit, or the atomics'
// post, hold, unhold, refund) fails here. runtime/state/ implements them; the admin's credit is a
// top-up, not spending (docs/teams-and-billing.md, "Who moves money").
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { expect, it } from 'vitest';
import { ROOT } from '../helpers/paths.ts';

const PRODUCT = ['runtime', 'cli', 'demo', 'sandbox', 'web', 'bin'];
const PRIMITIVE = /\bstate\s*\.\s*(charge|earn|credit)\s*\(|\batomics\s*\.\s*(post|hold|unhold|refund)\s*\(/g;
/** who may call which primitive, besides runtime/state/ (which implements them) */
const ALLOWED: Record<string, string[]> = {
  'runtime/money/spending.ts': ['charge', 'earn', 'hold', 'unhold', 'refund'],
  'runtime/routes/admin.ts': ['credit'],
};

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? (f === 'node_modules' ? [] : sources(p)) : /\.[cm]?[jt]s$/.test(f) ? [p] : [];
  });
}

/** repo-relative file → the money primitives it calls */
function callers(): Map<string, string[]> {
  const found = new Map<string, string[]>();
  for (const file of PRODUCT.flatMap((top) => sources(join(ROOT, top)))) {
    const rel = relative(ROOT, file);
    if (rel.startsWith('runtime/state/')) continue;
    const used = [...readFileSync(file, 'utf8').matchAll(PRIMITIVE)].map((m) => m[1] ?? m[2]);
    if (used.length) found.set(rel, [...new Set(used)].sort());
  }
  return found;
}

it('spends through runtime/money/spending.ts alone: no other file calls the state money primitives', () => {
  const found = callers();
  const stray = [...found].filter(([file, used]) => used.some((p) => !ALLOWED[file]?.includes(p)));
  expect(stray, 'spend through Spending (runtime/money/spending.ts) instead').toEqual([]);
  // the scan sees the calls it guards against: the money module's own are found
  expect(found.get('runtime/money/spending.ts')).toEqual(['charge', 'earn', 'hold', 'refund', 'unhold']);
});
