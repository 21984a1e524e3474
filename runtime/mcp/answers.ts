// svc's HTTP answers as MCP tool results: a JSON text block (and the same object as structured
// content); refusals (402, 422, …) are tool errors carrying svc's own sentence, in the agent's terms:
// a field is named as the tool's argument (`email`, not `body.email`), and a tool may rename more
// (a routed tool's route headers are its arguments). A paid call's refusal names its call id, so
// the agent can match it to the team's ledger.
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

/** how a tool says svc's words in its own arguments' terms */
export interface Terms {
  /** the request field holding the tool's arguments (a hub run's `input`), left out of a field's place as `body` is */
  within?: string;
  /** further renames in svc's sentence */
  rename?: (text: string) => string;
}
/** where svc found a field; an agent sends arguments, so the place is left out */
const PLACES = new Set(['body', 'header', 'query', 'path']);

export function jsonResult(value: Record<string, unknown>): CallToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(value, null, 1) }], structuredContent: value };
}

/** svc's `detail`, a sentence or a 422 list, as one sentence */
function sentence(detail: unknown, within: string | undefined): string {
  if (!Array.isArray(detail)) return typeof detail === 'string' ? detail : JSON.stringify(detail);
  return detail
    .map((d: { loc?: unknown[]; msg?: string }) => {
      let named = d.loc ?? [];
      if (PLACES.has(String(named[0]))) named = named.slice(1);
      if (within !== undefined && named[0] === within) named = named.slice(1);
      return named.length ? `${named.join('.')}: ${d.msg}` : String(d.msg);
    })
    .join('; ');
}

export function errorResult(status: number, body: unknown, terms: Terms = {}): CallToolResult {
  const answer = body && typeof body === 'object' ? (body as { detail?: unknown; call_id?: unknown }) : {};
  const detail = 'detail' in answer ? sentence(answer.detail, terms.within) : `svc answered ${status}.`;
  const callId = typeof answer.call_id === 'string' ? ` (call_id ${answer.call_id})` : '';
  return { content: [{ type: 'text', text: `${status}: ${terms.rename ? terms.rename(detail) : detail}${callId}` }], isError: true };
}

/** a JSON answer of svc: the result when 2xx, a tool error otherwise */
export async function fromResponse(
  r: Response,
  shape: (body: Record<string, unknown>) => Record<string, unknown> = (b) => b,
  terms: Terms = {},
): Promise<CallToolResult> {
  const text = await r.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = { detail: text.slice(0, 300) };
  }
  return r.ok ? jsonResult(shape(body as Record<string, unknown>)) : errorResult(r.status, body, terms);
}
