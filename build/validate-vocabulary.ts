// Checks of vocabulary/<capability>.yaml beyond its schema: the file is named for its capability, an
// operation names that capability, and no routed capability keeps its words here as well; and of any
// vocabulary, that its free-text field is one of what it has.
import { basename } from 'node:path';
import type { SourceFile } from './load.ts';
import type { BuildError } from './build-error.ts';
import type { VocabularyFileSrc, VocabularySrc } from '../language/types.ts';

/** a vocabulary's `free_text` names one of its `has` fields (any words take it, so it must be one a caller brings) */
export function freeTextError(v: VocabularySrc | undefined): string | null {
  return v?.free_text !== undefined && !Object.hasOwn(v.has, v.free_text) ? `vocabulary.free_text '${v.free_text}': not one of its has fields` : null;
}

export function vocabularyFileErrors(
  v: SourceFile<VocabularyFileSrc>,
  names: { routed: Set<string>; opCapabilities: Set<string>; partial: boolean },
): BuildError[] {
  const errs: BuildError[] = [];
  const err = (message: string, ...path: string[]) => errs.push({ pos: v.pos(path), message });
  const c = v.data.capability;
  const expected = basename(v.file, '.yaml');
  if (c !== expected) err(`capability '${c}' must match its file name '${expected}.yaml'`, 'capability');
  if (names.routed.has(c)) err(`capability '${c}' is routed: its vocabulary belongs in capabilities/${c}.yaml`, 'capability');
  else if (!names.partial && !names.opCapabilities.has(c))
    err(`capability '${c}': no operation has it (set capability: on an operation, or remove this file)`, 'capability');
  const free = freeTextError(v.data.vocabulary);
  if (free) err(free, 'vocabulary', 'free_text');
  return errs;
}
