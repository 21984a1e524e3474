// svc's HTTP answers as MCP tool results: a JSON text block (and the same object as structured
// content); refusals (402, 422, …) are tool errors carrying svc's own sentence, in the agent's terms:
// a field is named as the tool's argument (`email`, not `body.email`), and a tool may rename more
// (a routed tool's route headers are its arguments).
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

/** how a tool says svc's words in its own arguments' terms */
export type Terms = (text: string) => string;
const asSaid: Terms = (text) => text;
/** where svc found a field; an agent sends arguments, so the place is left out */
const PLACES = new Set(['body', 'header', 'query', 'path']);

export function jsonResult(value: Record<string, unknown>): CallToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(value, null, 1) }], structuredContent: value };
}

/** svc's `detail`, a sentence or a 422 list, as one sentence */
function sentence(detail: unknown): string {
  if (!Array.isArray(detail)) return typeof detail === 'string' ? detail : JSON.stringify(detail);
  return detail
    .map((d: { loc?: unknown[]; msg?: string }) => {
      const loc = d.loc ?? [];
      const named = PLACES.has(String(loc[0])) ? loc.slice(1) : loc;
      return named.length ? `${named.join('.')}: ${d.msg}` : String(d.msg);
    })
    .join('; ');
}

export function errorResult(status: number, body: unknown, terms: Terms = asSaid): CallToolResult {
  const detail = body && typeof body === 'object' && 'detail' in body ? sentence(body.detail) : `svc answered ${status}.`;
  return { content: [{ type: 'text', text: `${status}: ${terms(detail)}` }], isError: true };
}

/** a JSON answer of svc: the result when 2xx, a tool error otherwise */
export async function fromResponse(
  r: Response,
  shape: (body: Record<string, unknown>) => Record<string, unknown> = (b) => b,
  terms: Terms = asSaid,
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
