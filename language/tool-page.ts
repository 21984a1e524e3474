// A hub tool as GET /hub/tools/{id} answers it (the record and its page's facts), declared once for
// `svc hub show` and the dashboard's tool and account pages, with the words both use for a field's type.

/** a tool's input or output schema, as far as its page reads it */
export interface ToolSchema {
  properties?: Record<string, { type?: unknown; enum?: unknown[]; description?: string }>;
  required?: string[];
}

export interface ToolPage {
  tool_id: string;
  /** the maker's slug */
  team: string;
  name: string;
  summary: string;
  price_usd: number;
  price_micro: number;
  status: string;
  version: number;
  live_version: number | null;
  retired_at?: string;
  /** the maker's view only: why the version is not live, its runs and earnings */
  reason?: string;
  runs?: number;
  earnings_micro?: number;
  input_schema: ToolSchema;
  output_schema: ToolSchema;
  /** `runs` and `earnings_micro` in the maker's view only */
  versions: Array<{
    version: number;
    status: string;
    created_at: string;
    live_at?: string;
    pinnable_until?: string;
    reason?: string;
    runs?: number;
    earnings_micro?: number;
  }>;
  maker: { slug: string; name: string };
  worst_step_cost_micro: number;
  worst_cost_micro: number;
  last_check: { ok: boolean; at: string; cost_micro: number; ms: number } | null;
  serving: { ok: boolean; problems: string[] };
  usage: { said: string };
  call_templates: Record<string, string>;
  reviews?: { teams: number; share: Record<string, number>; samples: Array<{ usefulness: string; reason: string; month: string }> };
}

/** a schema field's type in words: its enum's values, or its JSON type ('any' when it names none) */
export const fieldType = (p: { type?: unknown; enum?: unknown[] }): string =>
  p.enum ? p.enum.map((v) => JSON.stringify(v)).join(' | ') : String(p.type ?? 'any');
