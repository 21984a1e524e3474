// Which catalog operation a request is: method + path template, then, where several operations share
// one path (one upstream endpoint serving several capabilities), the one whose fixed parameters and
// declared inputs fit the request best.
import type { RuntimeCatalog } from '../language/types.ts';
import { getPath } from '../language/json-path.ts';
import { readTarget, type ParsedRequest } from './request-read.ts';
import type { SandboxOperation } from './types.ts';

interface Route {
  op: SandboxOperation;
  method: string;
  re: RegExp;
  names: string[];
}

export interface Matched {
  op: SandboxOperation;
  params: Record<string, string>;
}

function compile(op: SandboxOperation): Route {
  const names: string[] = [];
  const src = op.path
    .replace(/\/+$/, '')
    .split(/(\{[^}]+\})/)
    .map((part) => {
      const m = /^\{([^}]+)\}$/.exec(part);
      if (!m) return part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      names.push(m[1]);
      return '([^/]+)';
    })
    .join('');
  return { op, method: op.method.toUpperCase(), re: new RegExp(`^${src}/?$`), names };
}

function same(a: unknown, b: unknown): boolean {
  return a === b || (a !== undefined && a !== null && b !== undefined && b !== null && String(a) === String(b));
}

/** Higher is a better fit; constants the request contradicts rule an operation out. */
function score(op: SandboxOperation, req: ParsedRequest, ignore: Set<string>): number {
  let s = op.response ? 0.5 : 0;
  const request = op.request ?? null;
  for (const [k, v] of Object.entries(request?.const?.query ?? {})) {
    const got = req.query.get(k);
    s += got === null ? -20 : same(got, v) ? 10 : -100;
  }
  for (const [k, v] of leavesWithPath(request?.const?.body)) {
    const got = getPath(req.body, k);
    s += got === undefined ? -20 : same(got, v) ? 10 : -100;
  }
  for (const m of request?.map ?? []) if (readTarget(req, m.to) !== undefined) s += 2;
  const declared = new Set([...Object.keys(op.input.queryParams ?? {}), ...Object.keys(op.input.body ?? {})]);
  const sent = [...req.query.keys(), ...(req.body && typeof req.body === 'object' && !Array.isArray(req.body) ? Object.keys(req.body) : [])];
  for (const k of sent) if (!ignore.has(k)) s += declared.has(k.replace(/\[\]$/, '')) ? 1 : -1;
  for (const [k, p] of Object.entries(op.input.queryParams ?? {})) {
    if (p.enum?.length === 1) s += telling(req.query.has(k) ? req.query.get(k) : undefined, p.enum[0]);
    else if (p.required && p.default !== undefined && req.query.has(k)) s += same(req.query.get(k), p.default) ? 3 : -3;
  }
  for (const [k, p] of Object.entries(op.input.body ?? {})) if (p.enum?.length === 1) s += telling(getPath(req.body, k), p.enum[0]);
  return s;
}

/**
 * A one-value enum is what tells an operation from those sharing its path (svc's pass-through reads
 * it so too): it outweighs a routed child's constants, such as a job's label a caller names freely.
 * A list parameter's enum is of its items.
 */
function telling(got: unknown, value: unknown): number {
  if (got === undefined) return 0;
  const one = Array.isArray(got) ? (got.length === 1 ? got[0] : undefined) : got;
  return same(one, value) ? 1000 : -1000;
}

function leavesWithPath(value: unknown, prefix = ''): Array<[string, unknown]> {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return prefix ? [[prefix, value]] : [];
  return Object.entries(value).flatMap(([k, v]) => leavesWithPath(v, prefix ? `${prefix}.${k}` : k));
}

export class RouteTable {
  private readonly byService = new Map<string, Route[]>();

  constructor(runtime: RuntimeCatalog) {
    for (const op of Object.values(runtime.operations) as SandboxOperation[]) {
      const list = this.byService.get(op.provider) ?? [];
      list.push(compile(op));
      this.byService.set(op.provider, list);
    }
  }

  /** Candidates by method and path, before any look at parameters. */
  candidates(service: string, method: string, path: string): Matched[] {
    const out: Matched[] = [];
    for (const r of this.byService.get(service) ?? []) {
      if (r.method !== method.toUpperCase()) continue;
      const m = r.re.exec(path.replace(/\/+$/, '') || '/');
      if (!m) continue;
      const params: Record<string, string> = {};
      r.names.forEach((n, i) => {
        params[n] = safeDecode(m[i + 1]);
      });
      out.push({ op: r.op, params });
    }
    return out;
  }

  best(cands: Matched[], req: Omit<ParsedRequest, 'params'>, ignore: Set<string>): Matched | null {
    let best: Matched | null = null;
    let top = -Infinity;
    for (const c of cands) {
      const s = score(c.op, { ...req, params: c.params }, ignore);
      if (s > top) {
        top = s;
        best = c;
      }
    }
    return best;
  }
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}
