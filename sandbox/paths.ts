// Path writes that may replace the whole body: `""` and `"[]"` name the root (a list answered bare).
import { segments, setPath } from '../language/json-path.ts';

export function isRoot(path: string): boolean {
  return segments(path).every((s) => s === '[]');
}

/** Write `value` at `path` and return the body (a new one when the path is the root). */
export function setAt(body: unknown, path: string, value: unknown): unknown {
  if (isRoot(path)) return value;
  const target = body && typeof body === 'object' ? body : {};
  setPath(target as Record<string, unknown>, path, value);
  return target;
}
