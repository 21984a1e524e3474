// Reading a provider request: its body as data, and a value at a mapping's `to` path.
import { segments, type Segment } from '../language/json-path.ts';

export interface ParsedRequest {
  query: URLSearchParams;
  params: Record<string, string>;
  headers: Record<string, string>;
  body: unknown;
}

export function parseBody(text: string): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    /* not JSON */
  }
  if (/^[^=&\s]+=[^&]*(&[^=&\s]+=[^&]*)*$/.test(text)) return Object.fromEntries(new URLSearchParams(text));
  return text;
}

/** Like getPath, but `[]` looks into every item (the first that has the rest of the path wins). */
export function readPath(value: unknown, segs: Segment[], i = 0): unknown {
  if (i === segs.length) return value;
  if (value === null || value === undefined) return undefined;
  const seg = segs[i];
  if (seg === '[]') {
    if (!Array.isArray(value)) return readPath(value, segs, i + 1);
    for (const item of value) {
      const found = readPath(item, segs, i + 1);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  if (typeof value !== 'object') return undefined;
  return readPath((value as Record<string | number, unknown>)[seg], segs, i + 1);
}

/** The value a mapping's `to` (`query.x`, `body.a[].b`, `path.x`, `header.x`) holds in this request. */
export function readTarget(req: ParsedRequest, to: string): unknown {
  const segs = segments(to);
  const [where, ...rest] = segs;
  if (where === 'body') return readPath(req.body, rest);
  const name = String(rest[0] ?? '');
  if (where === 'path') return req.params[name];
  if (where === 'header') return req.headers[name.toLowerCase()];
  if (where === 'query') {
    const all = [...req.query.getAll(name), ...req.query.getAll(`${name}[]`)];
    return all.length ? all[0] : undefined;
  }
  return undefined;
}

/** Every leaf of a JSON-ish value, with the name of the key that holds it. */
export function leaves(value: unknown, key = '', out: Array<[string, unknown]> = []): Array<[string, unknown]> {
  if (Array.isArray(value)) value.forEach((v) => leaves(v, key, out));
  else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) leaves(v, k, out);
  else if (value !== undefined && value !== null) out.push([key, value]);
  return out;
}
