// Patterns written by users (a hub maker's `pattern` and `patternProperties`) run on RE2JS, an
// engine whose matching time grows linearly with the input, so no pattern can hold the event loop
// the way a backtracking one does on `^(a+)+$`. RE2's syntax is JavaScript's without backreferences
// and lookaround; a pattern outside it is refused when compiled, with a sentence saying why.
// Loaded on first use, as ajv is: about 50 ms that a start without a hub publish need not pay.
import { createRequire } from 'node:module';
import type { RE2JS as RE2JSClass } from 're2js';

let RE2JS: typeof RE2JSClass | undefined;

export class UnsafePattern extends Error {}

/** a compiled user pattern with RegExp's `test` (a search, not a whole match), or UnsafePattern */
export function linearRegExp(pattern: string): { test(input: string): boolean } {
  RE2JS ??= (createRequire(import.meta.url)('re2js') as typeof import('re2js')).RE2JS;
  try {
    return RE2JS.compile(pattern);
  } catch (e) {
    const why = (e as Error).message.replace(/^error parsing regexp: /, '');
    throw new UnsafePattern(
      `The pattern '${pattern.slice(0, 200)}' cannot be used (${why}): svc runs patterns with RE2, JavaScript's syntax without backreferences or lookaround, and \\x{00e9} for \\u00e9, so that matching takes time linear in the text.`,
    );
  }
}

/** the same as ajv's `code.regExp` engine; `code` names it only in standalone code, which svc never writes */
export const ajvLinearRegExp = Object.assign((pattern: string) => linearRegExp(pattern), { code: 'linearRegExp' });
