// Reviews in the catalog tools' answers. A review's `reason` and `client` are text written by a
// team, read by an agent as it reads a hub maker's words, so they reach it as plain capped text
// (plain-text.ts). svc's catalog answers carry a review summary under the key `reviews` wherever a
// reviewed operation or hub tool shows: an entry's endpoint and each of its siblings (a routed
// entry's children among them), a hub tool's page, its rows in search and in the finder's
// candidates and kept rows. Rather than name each place, every catalog tool's answer is walked
// whole, so a place added later is cleaned too. The HTTP JSON API keeps the text as sent.
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { ReviewSummary } from '../../language/types.ts';
import { plainReviews } from '../util/plain-text.ts';
import { jsonResult } from './answers.ts';

/** svc's review summary, and nothing else that happens to sit under a `reviews` key (a provider's example answer may hold one) */
function isSummary(v: unknown): v is ReviewSummary {
  if (!v || typeof v !== 'object') return false;
  const { teams, samples } = v as { teams?: unknown; samples?: unknown };
  return (
    typeof teams === 'number' &&
    Array.isArray(samples) &&
    samples.every((s) => s && typeof s === 'object' && typeof s.reason === 'string' && typeof s.client === 'string')
  );
}

/** `value` with every review summary in it, at any depth, as plain text */
export function plainReviewsIn(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(plainReviewsIn);
  if (!value || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, k === 'reviews' && isSummary(v) ? plainReviews(v) : plainReviewsIn(v)]));
}

/** a catalog tool's answer with its reviews as plain text, in the structured content and the text block alike (a tool error carries none) */
export function withPlainReviews(result: CallToolResult): CallToolResult {
  return result.structuredContent ? jsonResult(plainReviewsIn(result.structuredContent) as Record<string, unknown>) : result;
}
