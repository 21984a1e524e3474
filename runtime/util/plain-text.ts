// Text written by a team (a hub maker's words, a review's reason and client), made fit for an
// agent's context: plain text (tags removed, and any `<` or `>` left over with them), no control or
// invisible formatting characters (bidi overrides, zero-width), whitespace collapsed, and at most
// `max` characters. Every answer that carries a team's words to an agent cleans them here, so no
// door shows them raw.
import type { ReviewSummary } from '../../language/types.ts';

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

/** caps on a maker's words shown to an agent, in characters: a tool's name and summary, and every `title` and `description` in its schemas */
const CAPS = new Map([
  ['name', 80],
  ['summary', 300],
]);
const SCHEMA_TEXT_MAX = 200;
const SCHEMAS = new Set(['input_schema', 'output_schema']);

/**
 * A hub tool as any answer to an agent carries it (tools/list, /hub/mcp-tools, search rows, the
 * tool's page): its maker's name, summary and schemas, where present, as plain capped text.
 */
export function plainTool<T extends object>(tool: T): T {
  return Object.fromEntries(
    Object.entries(tool).map(([k, v]) => [
      k,
      typeof v === 'string' && CAPS.has(k) ? plainText(v, CAPS.get(k)!) : SCHEMAS.has(k) ? plainSchema(v, SCHEMA_TEXT_MAX) : v,
    ]),
  ) as T;
}

/** caps on a review's words shown to an agent, in characters: what POST /reviews takes */
const REVIEW_REASON_MAX = 500;
const REVIEW_CLIENT_MAX = 64;

/** a review summary (an operation's or a hub tool's) with every sample's `reason` and `client` as plain capped text */
export function plainReviews(summary: ReviewSummary): ReviewSummary {
  return {
    ...summary,
    samples: summary.samples.map((s) => ({ ...s, reason: plainText(s.reason, REVIEW_REASON_MAX), client: plainText(s.client, REVIEW_CLIENT_MAX) })),
  };
}
