// `field=value …` on the command line into a JSON body. A value is read as the type the server
// declares for the field (the catalog entry's parameters, a tool's input schema), so `limit=10` is
// a number and `keywords=a,b` a list; `field:=<json>` sends any JSON as written.
import { CliFailure, EXIT } from './fail.ts';

/** how a field's text is read: the catalog's field types and JSON Schema's, folded together */
export type FieldKind = 'text' | 'integer' | 'number' | 'boolean' | 'list' | 'object';

const KINDS: Record<string, FieldKind> = {
  str: 'text',
  url: 'text',
  string: 'text',
  int: 'integer',
  integer: 'integer',
  number: 'number',
  float: 'number',
  bool: 'boolean',
  boolean: 'boolean',
  list: 'list',
  array: 'list',
  object: 'object',
  dict: 'object',
};

export const kindOf = (type: unknown): FieldKind => (typeof type === 'string' && KINDS[type]) || 'text';

function jsonValue(field: string, text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new CliFailure(`${field}:= takes JSON (e.g. ${field}:=10 or ${field}:='["a","b"]'); '${text}' is not JSON.`, EXIT.usage);
  }
}

function read(field: string, text: string, kind: FieldKind): unknown {
  switch (kind) {
    case 'integer':
    case 'number': {
      const n = Number(text);
      if (text.trim() === '' || !Number.isFinite(n) || (kind === 'integer' && !Number.isInteger(n))) {
        throw new CliFailure(`${field} takes ${kind === 'integer' ? 'a whole number' : 'a number'}; '${text}' is not one.`, EXIT.usage);
      }
      return n;
    }
    case 'boolean':
      if (['true', '1', 'yes'].includes(text)) return true;
      if (['false', '0', 'no'].includes(text)) return false;
      throw new CliFailure(`${field} takes true or false; '${text}' is neither.`, EXIT.usage);
    case 'list':
      return text.startsWith('[')
        ? jsonValue(field, text)
        : text
            .split(',')
            .map((s) => s.trim())
            .filter(Boolean);
    case 'object':
      return jsonValue(field, text);
    default:
      return text;
  }
}

/** `["email=jane@x.com", "limit=5"]` → `{email: "jane@x.com", limit: 5}`; kinds name each field's type */
export function parseFields(words: string[], kinds: Record<string, FieldKind> = {}): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const word of words) {
    const m = /^([^=:]+)(:?=)([\s\S]*)$/.exec(word);
    if (!m) throw new CliFailure(`'${word}' is not field=value (e.g. email=jane@stripe.com, or limit:=10 for JSON).`, EXIT.usage);
    const [, field, op, text] = m;
    // the last would silently win: a script that repeats a field has a bug worth hearing about
    if (Object.hasOwn(body, field)) throw new CliFailure(`${field} is given twice; give each field once.`, EXIT.usage);
    body[field] = op === ':=' ? jsonValue(field, text) : read(field, text, kinds[field] ?? 'text');
  }
  return body;
}

/** edits (insert, delete, change one letter) from a to b */
function distance(a: string, b: string): number {
  let row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    for (let j = 1; j <= b.length; j++) next[j] = Math.min(row[j] + 1, next[j - 1] + 1, row[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    row = next;
  }
  return row[b.length];
}

/** "did you mean X? " when one of `known` is a likely misspelling of `word`; else nothing */
export function didYouMean(word: string, known: readonly string[]): string {
  const near = known.map((k) => ({ k, d: distance(word, k) })).sort((a, b) => a.d - b.d)[0];
  return near && near.d <= Math.max(2, Math.floor(word.length / 3)) ? `did you mean ${near.k}? ` : '';
}

/** A field the operation does not take is a usage error before the call, naming the nearest it does take. */
export function refuseUnknownFields(body: Record<string, unknown>, known: string[], what: string): void {
  for (const field of Object.keys(body)) {
    if (!known.includes(field))
      throw new CliFailure(`${what} has no field '${field}'; ${didYouMean(field, known)}its fields are ${known.join(', ')}.`, EXIT.usage);
  }
}

/** A word that must be one of a few (a feedback kind) is checked before anything is sent. */
export function oneOf(what: string, word: string, allowed: readonly string[]): string {
  if (!allowed.includes(word))
    throw new CliFailure(`${what} is one of ${allowed.join(', ')}; '${word}' is not one (${didYouMean(word, allowed)}nothing was sent).`, EXIT.usage);
  return word;
}
