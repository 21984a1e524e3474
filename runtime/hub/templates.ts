// Templates are the hub's only expressions: `{{input.x}}` and `{{steps.<id>.output.y}}`, read as
// paths into data. Nothing is evaluated; anything else inside `{{ }}` is refused at publish.
export type TemplateRef = { kind: 'input'; field: string; path: string[] } | { kind: 'step'; step: string; field: string; path: string[] };

const TEMPLATE = /\{\{\s*([^{}]*?)\s*\}\}/g;
const WHOLE = /^\{\{\s*([^{}]*?)\s*\}\}$/;
const SEGMENT = /^[A-Za-z_][A-Za-z0-9_-]*$/;

/** what one template names, or null when it is not one of the two forms */
export function parseRef(text: string): TemplateRef | null {
  const parts = text.split('.');
  if (!parts.every((p) => SEGMENT.test(p))) return null;
  if (parts[0] === 'input' && parts.length >= 2) return { kind: 'input', field: parts[1], path: parts.slice(1) };
  if (parts[0] === 'steps' && parts.length >= 4 && parts[2] === 'output') return { kind: 'step', step: parts[1], field: parts[3], path: parts.slice(3) };
  return null;
}

/** the text inside every `{{ }}` of a string (an unclosed `{{` counts as a broken template) */
export function templatesIn(value: unknown): string[] {
  if (typeof value !== 'string') return [];
  const found = [...value.matchAll(TEMPLATE)].map((m) => m[1]);
  const stray = value.replace(TEMPLATE, '');
  return stray.includes('{{') || stray.includes('}}') ? [...found, stray] : found;
}

/** the input, and each finished step's output by step id */
export interface Scope {
  input: Record<string, unknown>;
  steps: Record<string, Record<string, unknown>>;
}

function lookup(ref: TemplateRef, scope: Scope): unknown {
  let cur: unknown = ref.kind === 'input' ? scope.input : scope.steps[ref.step];
  for (const seg of ref.path) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<string, unknown>)[seg];
  }
  return cur;
}

/**
 * A `with` or `output` value filled in: a string that is one whole template takes the value it
 * names (its type kept; undefined when absent); templates inside longer text are joined as text;
 * anything else is a literal. Only published (checked) values reach this.
 */
export function fill(value: unknown, scope: Scope): unknown {
  if (typeof value !== 'string') return value;
  const whole = WHOLE.exec(value);
  if (whole) return lookup(parseRef(whole[1])!, scope);
  return value.replace(TEMPLATE, (_, inner: string) => {
    const v = lookup(parseRef(inner)!, scope);
    return v === undefined || v === null ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v);
  });
}

/** every value of a map filled in; fields that come out undefined are left out */
export function fillAll(map: Record<string, unknown>, scope: Scope): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(map)) {
    const filled = fill(v, scope);
    if (filled !== undefined) out[k] = filled;
  }
  return out;
}
