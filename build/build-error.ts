// One problem in catalog-src/, where it is and how it is printed: `file:line:col [provider] message`.
import type { SourcePos } from '../language/types.ts';

export interface BuildError {
  pos: SourcePos;
  provider?: string;
  message: string;
}

export function formatError(e: BuildError): string {
  return `${e.pos.file}:${e.pos.line}:${e.pos.col} ${e.provider ? `[${e.provider}] ` : ''}${e.message}`;
}
