// The tiny path language of the catalog's mappings: `a.b[0].c`, `list[]` (append / wrap in an array).

import { Remembered } from './remember.ts';

export type Segment = string | number | '[]';

export function parsePath(path: string): Segment[] {
  const out: Segment[] = [];
  for (const part of path.match(/[^.[\]]+|\[\d*\]/g) ?? []) {
    if (part === '[]') out.push('[]');
    else if (part.startsWith('[')) out.push(Number(part.slice(1, -1)));
    else out.push(part);
  }
  return out;
}

/** Parsed paths, remembered: the catalog's mappings use the same few hundred on every call. */
const parsed = new Remembered<readonly Segment[]>(10_000, parsePath);
/** parsePath's answer, remembered (do not change the array) */
export const segments = (path: string | readonly Segment[]): readonly Segment[] => (typeof path === 'string' ? parsed.get(path) : path);

export function getPath(value: unknown, path: string | readonly Segment[]): unknown {
  let cur = value;
  for (const seg of segments(path)) {
    if (cur === null || cur === undefined) return undefined;
    if (seg === '[]') return cur;
    cur = (cur as Record<string | number, unknown>)[seg];
  }
  return cur;
}

/** Set a value, creating objects and arrays on the way; `[]` appends. */
export function setPath(target: Record<string, unknown> | unknown[], path: string | readonly Segment[], value: unknown): void {
  const segs = segments(path);
  let cur: Record<string | number, unknown> = target as Record<string | number, unknown>;
  segs.forEach((seg, i) => {
    const last = i === segs.length - 1;
    const next = segs[i + 1];
    if (seg === '[]') {
      const arr = cur as unknown as unknown[];
      if (last) arr.push(value);
      else {
        const item = typeof next === 'number' || next === '[]' ? [] : {};
        arr.push(item);
        cur = item as Record<string, unknown>;
      }
      return;
    }
    if (last) {
      cur[seg] = value;
      return;
    }
    if (cur[seg] === undefined || cur[seg] === null || typeof cur[seg] !== 'object') {
      cur[seg] = typeof next === 'number' || next === '[]' ? [] : {};
    }
    cur = cur[seg] as Record<string | number, unknown>;
  });
}
