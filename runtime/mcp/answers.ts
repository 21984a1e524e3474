// svc's HTTP answers as MCP tool results: a JSON text block (and the same object as structured
// content); refusals (402, 422, …) are tool errors carrying svc's own sentence.
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

export function jsonResult(value: Record<string, unknown>): CallToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(value, null, 1) }], structuredContent: value };
}

/** svc's `detail`, a sentence or a 422 list, as one sentence */
function sentence(detail: unknown): string {
  if (Array.isArray(detail)) return detail.map((d: { loc?: unknown[]; msg?: string }) => `${(d.loc ?? []).join('.')}: ${d.msg}`).join('; ');
  return typeof detail === 'string' ? detail : JSON.stringify(detail);
}

export function errorResult(status: number, body: unknown): CallToolResult {
  const detail = body && typeof body === 'object' && 'detail' in body ? sentence(body.detail) : `svc answered ${status}.`;
  return { content: [{ type: 'text', text: `${status}: ${detail}` }], isError: true };
}

/** a JSON answer of svc: the result when 2xx, a tool error otherwise */
export async function fromResponse(r: Response, shape: (body: Record<string, unknown>) => Record<string, unknown> = (b) => b): Promise<CallToolResult> {
  const text = await r.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = { detail: text.slice(0, 300) };
  }
  return r.ok ? jsonResult(shape(body as Record<string, unknown>)) : errorResult(r.status, body);
}
