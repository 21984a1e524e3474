// Text written by a hub maker, made fit for an agent's context: plain text (tags removed, and any
// `<` or `>` left over with them), no control or invisible formatting characters (bidi overrides,
// zero-width), whitespace collapsed, and at most `max` characters.
export function plainText(text: string, max: number): string {
  const plain = text
    .replace(/<[^<>]*>/g, ' ')
    .replace(/[<>]/g, ' ')
    .replace(/[\p{Cc}\p{Cf}\p{Co}\p{Cs}]/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  const chars = Array.from(plain);
  return chars.length > max
    ? `${chars
        .slice(0, max - 1)
        .join('')
        .trimEnd()}…`
    : plain;
}

/** a maker's JSON Schema with every `title` and `description` in it as plain text, capped; `$comment`s dropped */
export function plainSchema(value: unknown, max: number): unknown {
  if (Array.isArray(value)) return value.map((v) => plainSchema(v, max));
  if (!value || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    if (k === '$comment') continue;
    out[k] = (k === 'title' || k === 'description') && typeof v === 'string' ? plainText(v, max) : plainSchema(v, max);
  }
  return out;
}
